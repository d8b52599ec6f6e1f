/* error.c - status strings, the per-thread last error and the error handler
 * that launchers report through.  No CUDA here, so pool tests can link it. */
#include "rt.h"

#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <strings.h>

/* launch.h's gf_site, without pulling in the CUDA headers. */
struct gf_site {
    const char *function;
    const char *file;
    int line;
    int profile_slot;
};

_Thread_local const struct gf_site *gf_tl_site;

const char *gf_version(void) { return GPUFUSE_VERSION_STRING; }
static _Thread_local char last_msg[1024];
static _Thread_local char status_msg[1200];

static const char *status_name(gf_status s);

static void default_handler(gf_status s, const char *message, void *user)
{
    (void)user;
    fprintf(stderr, "gpufuse: %s\n  %s\n", status_name(s), message);
    fflush(stderr);
    abort();
}

static pthread_mutex_t handler_mu = PTHREAD_MUTEX_INITIALIZER;
static gf_error_handler handler = default_handler;
static void *handler_user;

static const char *status_name(gf_status s)
{
    switch (s) {
    case GF_SUCCESS: return "GF_SUCCESS: no error";
    case GF_ERROR_INVALID_VALUE: return "GF_ERROR_INVALID_VALUE: invalid argument";
    case GF_ERROR_OUT_OF_MEMORY: return "GF_ERROR_OUT_OF_MEMORY: out of memory";
    case GF_ERROR_NO_DEVICE: return "GF_ERROR_NO_DEVICE: no usable GPU (CPU fallback)";
    case GF_ERROR_CUDA: return "GF_ERROR_CUDA: a CUDA call failed";
    case GF_ERROR_NOT_MAPPED: return "GF_ERROR_NOT_MAPPED: pointer is not in a data region";
    case GF_ERROR_OVERLAP: return "GF_ERROR_OVERLAP: data region partly overlaps an existing one";
    case GF_ERROR_LIMIT: return "GF_ERROR_LIMIT: GPUFUSE_POOL_LIMIT would be exceeded";
    case GF_ERROR_NOT_SUPPORTED: return "GF_ERROR_NOT_SUPPORTED: not available in this build";
    case GF_ERROR_INTERNAL: return "GF_ERROR_INTERNAL: internal error";
    }
    return "unknown gf_status";
}

const char *gf_error_string(gf_status s)
{
    if (s == GF_SUCCESS || !last_msg[0])
        return status_name(s);
    snprintf(status_msg, sizeof status_msg, "%s (%s)", status_name(s), last_msg);
    return status_msg;
}

const char *gf_last_error(void) { return last_msg; }

gf_status gf_fail(gf_status s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_msg, sizeof last_msg, fmt, ap);
    va_end(ap);
    return s;
}

void gf_report(gf_status s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_msg, sizeof last_msg, fmt, ap);
    va_end(ap);
    pthread_mutex_lock(&handler_mu);
    gf_error_handler h = handler;
    void *u = handler_user;
    pthread_mutex_unlock(&handler_mu);
    h(s, last_msg, u);
}

void gf_set_error_handler(gf_error_handler h, void *user)
{
    pthread_mutex_lock(&handler_mu);
    handler = h ? h : default_handler;
    handler_user = h ? user : NULL;
    pthread_mutex_unlock(&handler_mu);
}

gf_status gf_lib_fail(gf_status s, const char *expr, const char *why, const char *func, const char *file, int line)
{
    char where[320];
    int n = (int)strcspn(expr, "( ");
    gf_where(where, sizeof where, func, file, line);
    return gf_fail(s, "%.*s failed: %s %s", n < 63 ? n : 63, expr, why, where);
}

void gf_where(char *buf, size_t n, const char *func, const char *file, int line)
{
    const struct gf_site *s = gf_tl_site;
    if (s)
        snprintf(buf, n, "(in %s at %s:%d)", s->function ? s->function : "?",
                 s->file ? s->file : "?", s->line);
    else
        snprintf(buf, n, "(in %s at %s:%d)", func, file, line);
}

double gf_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

int gf_env_on(const char *v)
{
    if (!v)
        return 1;
    return !(!strcmp(v, "0") || !strcasecmp(v, "off") || !strcasecmp(v, "no") || !strcasecmp(v, "false"));
}

int gf_parse_size(const char *s, size_t *out)
{
    if (!s)
        return -1;
    while (isspace((unsigned char)*s))
        s++;
    if (!isdigit((unsigned char)*s))
        return -1;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno)
        return -1;
    unsigned shift = 0;
    switch (toupper((unsigned char)*end)) {
    case 'K': shift = 10; end++; break;
    case 'M': shift = 20; end++; break;
    case 'G': shift = 30; end++; break;
    case 'T': shift = 40; end++; break;
    default: break;
    }
    if (shift && (*end == 'i' || *end == 'I'))
        end++;
    if (shift && (*end == 'b' || *end == 'B'))
        end++;
    else if (!shift && (*end == 'b' || *end == 'B'))
        end++;
    while (isspace((unsigned char)*end))
        end++;
    if (*end)
        return -1;
    if (shift && v > (~0ULL >> shift))
        return -1;
    *out = (size_t)(v << shift);
    return 0;
}
