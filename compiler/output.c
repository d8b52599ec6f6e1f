/* output.c - how gpufuse writes its files, as gcc does: an output that is
 * the input is refused; a regular file is replaced atomically (temporary in
 * the same directory, then rename) keeping its mode, and left alone when its
 * bytes would not change; symlinks are followed to their target; devices,
 * pipes and our own standard streams are written through. */
#define _DEFAULT_SOURCE
#include "driver.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- identity --------------------------------------------------------------- */

static bool same_inode(const struct stat *a, const struct stat *b)
{
    return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* The file `path` names, for comparing names of files that may not exist
 * yet: its real path, else its directory's real path and its base name. */
static char *canonical(const char *path)
{
    char *real = realpath(path, NULL);
    if (real)
        return real;
    const char *slash = strrchr(path, '/');
    char *dir = slash ? strndup(path, (size_t)(slash - path + 1)) : strdup(".");
    char *rdir = dir ? realpath(dir, NULL) : NULL;
    const char *base = slash ? slash + 1 : path;
    char *out = rdir ? malloc(strlen(rdir) + strlen(base) + 2) : NULL;
    if (out)
        sprintf(out, "%s/%s", rdir, base);
    free(dir);
    free(rdir);
    return out;
}

/* 1 when a and b name the same file: same device and inode (so './x.c', an
 * absolute path, a symlink or a hard link are all caught), or, for files
 * not there yet, the same canonical name. */
static bool same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
        return S_ISREG(sa.st_mode) && same_inode(&sa, &sb);
    char *ca = canonical(a), *cb = canonical(b);
    bool same = ca && cb && !strcmp(ca, cb);
    free(ca);
    free(cb);
    return same;
}

/* `what` (an output) must be neither the input nor `other` (the output). */
static bool distinct(const char *what, const char *path, const char *input, const char *other)
{
    if (!path || !strcmp(path, "-"))
        return true;
    if (same_file(path, input)) {
        diag_at(DIAG_ERROR, (Loc){0}, NULL, "%s '%s' is the input file '%s': refusing to overwrite it", what, path,
                input);
        return false;
    }
    if (other && strcmp(other, "-") && same_file(path, other)) {
        diag_at(DIAG_ERROR, (Loc){0}, NULL, "%s '%s' is the same file as the output '%s'", what, path, other);
        return false;
    }
    return true;
}

bool gfc_check_outputs(const Options *o)
{
    return distinct("output", o->output, o->input, NULL) && distinct("depfile", o->depfile, o->input, o->output);
}

/* ---- writing ------------------------------------------------------------------ */

static bool fail(const char *path, int err)
{
    diag_at(DIAG_ERROR, (Loc){0}, NULL, "cannot write '%s': %s", path, strerror(err));
    return false;
}

static bool write_all(int fd, const char *text, size_t len)
{
    while (len) {
        ssize_t w = write(fd, text, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        text += w;
        len -= (size_t)w;
    }
    return true;
}

/* A device, a pipe, a dangling symlink or a file with other names: opened
 * and written in place, as gcc does. */
static bool write_through(const char *path, const char *text, size_t len)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (fd < 0)
        return fail(path, errno);
    bool ok = write_all(fd, text, len);
    int err = errno;
    if (close(fd) != 0 && ok) {
        ok = false;
        err = errno;
    }
    return ok ? true : fail(path, err);
}

/* 1 when the regular file `path` (of size st_size) already holds exactly
 * these bytes: left alone, so build systems that restat skip what depends
 * on it. */
static bool unchanged(const char *path, const struct stat *st, const char *text, size_t len)
{
    if ((size_t)st->st_size != len)
        return false;
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    char buf[65536];
    size_t off = 0, n;
    bool same = true;
    while (same && (n = fread(buf, 1, sizeof buf, f)) > 0) {
        same = off + n <= len && !memcmp(buf, text + off, n);
        off += n;
    }
    fclose(f);
    return same && off == len;
}

/* A regular file or a new one: a temporary beside it, then rename, so that
 * no partial file ever exists; the existing file's mode is kept. */
static bool replace_atomic(const char *path, const struct stat *old, const char *text, size_t len)
{
    size_t n = strlen(path);
    char *tmp = malloc(n + 16);
    const char *slash = strrchr(path, '/');
    size_t dir = slash ? (size_t)(slash - path) + 1 : 0;
    memcpy(tmp, path, dir);
    snprintf(tmp + dir, n + 16 - dir, ".%s.XXXXXX", path + dir);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        free(tmp);
        return fail(path, errno);
    }
    mode_t mode;
    if (old) {
        mode = old->st_mode & 07777;
        if (fchown(fd, old->st_uid, old->st_gid) != 0) { /* only root may give files away: keep ours */
        }
    } else {
        mode_t mask = umask(0);
        umask(mask);
        mode = 0666 & ~mask;
    }
    bool ok = fchmod(fd, mode) == 0 && write_all(fd, text, len);
    int err = errno;
    if (close(fd) != 0 && ok) {
        ok = false;
        err = errno;
    }
    if (ok && rename(tmp, path) != 0) {
        ok = false;
        err = errno;
    }
    if (!ok)
        unlink(tmp);
    free(tmp);
    return ok ? true : fail(path, err);
}

/* The standard stream `path` refers to (/dev/stdout, /proc/self/fd/2, ...),
 * else NULL. */
static FILE *std_stream(const struct stat *st)
{
    struct stat s;
    if (fstat(1, &s) == 0 && same_inode(&s, st))
        return stdout;
    if (fstat(2, &s) == 0 && same_inode(&s, st))
        return stderr;
    return NULL;
}

bool gfc_write_output(const char *path, const char *text, size_t len)
{
    if (!strcmp(path, "-"))
        return fwrite(text, 1, len, stdout) == len && fflush(stdout) == 0 ? true : fail("-", errno);
    struct stat st;
    if (stat(path, &st) != 0) {
        struct stat l;
        if (errno == ENOENT && lstat(path, &l) == 0 && S_ISLNK(l.st_mode))
            return write_through(path, text, len); /* a dangling symlink: create its target */
        if (errno != ENOENT)
            return fail(path, errno);
        return replace_atomic(path, NULL, text, len);
    }
    FILE *std = std_stream(&st);
    if (std) {
        fflush(std == stdout ? stdout : stderr);
        return fwrite(text, 1, len, std) == len && fflush(std) == 0 ? true : fail(path, errno);
    }
    if (S_ISDIR(st.st_mode))
        return fail(path, EISDIR);
    if (!S_ISREG(st.st_mode))
        return write_through(path, text, len);
    /* a regular file: read-only stays read-only (an error, as gcc's) */
    int fd = open(path, O_WRONLY);
    if (fd < 0)
        return fail(path, errno);
    close(fd);
    if (unchanged(path, &st, text, len))
        return true;
    if (st.st_nlink > 1)
        return write_through(path, text, len); /* keep the other names pointing at it */
    char real[PATH_MAX];
    if (!realpath(path, real)) /* a symlink is replaced at its target, not itself */
        return fail(path, errno);
    return replace_atomic(real, &st, text, len);
}
