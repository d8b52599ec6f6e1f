/* copyin.c - the launchers of copyin_kernels.c on host arrays, on the GPU,
 * against their C bodies: outputs are poisoned (NaN) before the call, so an
 * element the GPU did not write and the launcher did not copy in comes back
 * wrong; elements the function does not write (the columns past h, y's
 * ends) hold a sentinel that must survive.  The profile's bytes copied in
 * show which arrays were copied: filt's outputs only when h < D, twice's t
 * never, tri's y always.  Needs a GPU: exit 77 without one. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <gpufuse.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define D 64   /* the rows of filt */
#define T 1024 /* the rows of tri */
void filt(int w, int h, float a, const float in[][D], float out[][D], float y1[][D], float y2[][D]);
void gf_filt(int w, int h, float a, const float in[][D], float out[][D], float y1[][D], float y2[][D]);
void twice(int n, const float *x, float *y, float *t);
void gf_twice(int n, const float *x, float *y, float *t);
void tri(int n, const float *x, float y[][T]);
void gf_tri(int n, const float *x, float y[][T]);

static int failures;

static void check(const char *what, int ok)
{
    printf("  %-60s %s\n", what, ok ? "ok" : "FAILED");
    failures += !ok;
}

static int same(const float *a, const float *b, long n)
{
    for (long i = 0; i < n; i++)
        if (!(fabsf(a[i] - b[i]) <= 1e-5f * fmaxf(1.0f, fabsf(a[i]))))
            return 0;
    return 1;
}

/* MB copied in by the launcher of `name` since the last reset: the
 * profile's "in MB" column (function, calls, GPU, CPU, C body, GPU ms,
 * us/call, GB/s, %peak, wall ms, in MB, out MB, source). */
static double copied_in(const char *name)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    gf_profile_print(f);
    fclose(f);
    double mb = -1;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *tok[16], *s2 = NULL;
        int n = 0;
        for (char *t = strtok_r(line, " ", &s2); t && n < 16; t = strtok_r(NULL, " ", &s2))
            tok[n++] = t;
        if (n >= 12 && (!strcmp(tok[0], name) || (!strncmp(tok[0], "gf_", 3) && !strcmp(tok[0] + 3, name))))
            mb = atof(tok[10]);
    }
    free(text);
    gf_profile_reset();
    return mb;
}

/* The bytes copied in against `want` MB, where the profile's tenths of a
 * MB can tell (the calls that check it are big enough for the arrays that
 * must not be copied to make a difference). */
static void check_copied(const char *call, double want, double got)
{
    if (want < 0.5)
        return;
    char what[160];
    snprintf(what, sizeof what, "%s copies in %.2f MB (got %.1f)", call, want, got);
    check(what, fabs(got - want) <= 0.051);
}

static float *poisoned(long n)
{
    float *p = malloc(sizeof(float) * (size_t)n);
    for (long i = 0; i < n; i++)
        p[i] = NAN;
    return p;
}

static void check_filt(int w, int h)
{
    long n = (long)w * D;
    float *in = malloc(sizeof(float) * (size_t)n), *ref[3], *got[3];
    for (long i = 0; i < n; i++)
        in[i] = (float)((i * 7919) % 1000) / 250.0f - 2.0f;
    for (int k = 0; k < 3; k++) {
        ref[k] = poisoned(n);
        got[k] = poisoned(n);
        for (int i = 0; i < w; i++)
            for (int j = h; j < D; j++)    /* never written: must survive */
                ref[k][(long)i * D + j] = got[k][(long)i * D + j] = -7.0f;
    }
    filt(w, h, 0.75f, (const float(*)[D])in, (float(*)[D])ref[0], (float(*)[D])ref[1], (float(*)[D])ref[2]);
    gf_filt(w, h, 0.75f, (const float(*)[D])in, (float(*)[D])got[0], (float(*)[D])got[1], (float(*)[D])got[2]);
    double mb = copied_in("filt");
    char what[128];
    snprintf(what, sizeof what, "filt %dx%d (of %d columns) equals its C body", w, h, D);
    int ok = 1;
    for (int k = 0; k < 3; k++)
        for (long i = 0; i < n; i++) /* the rows' written part from the C body, the rest the sentinel */
            ok &= (long)(i % D) < h ? same(&ref[k][i], &got[k][i], 1) : got[k][i] == -7.0f;
    check(what, ok);
    /* each copy runs from [0][0] to [w-1][h-1]; h == D: only `in`, else all four */
    double in_mb = ((double)(w - 1) * D + h) * sizeof(float) / 1e6;
    double want = h == D ? in_mb : 4 * in_mb;
    snprintf(what, sizeof what, "filt %dx%d", w, h);
    check_copied(what, want, mb);
    free(in);
    for (int k = 0; k < 3; k++) {
        free(ref[k]);
        free(got[k]);
    }
}

static void check_twice(int n)
{
    float *x = malloc(sizeof(float) * (size_t)n), *y0 = poisoned(n), *y1 = poisoned(n), *t0 = poisoned(n),
          *t1 = poisoned(n);
    for (int i = 0; i < n; i++)
        x[i] = (float)(i % 97) * 0.125f;
    y0[0] = y1[0] = y0[n - 1] = y1[n - 1] = 3.0f; /* the ends: not written */
    twice(n, x, y0, t0);
    gf_twice(n, x, y1, t1);
    double mb = copied_in("twice");
    char what[128];
    snprintf(what, sizeof what, "twice n=%d equals its C body, y's ends kept", n);
    check(what, same(y0, y1, n) && same(t0, t1, n) && y1[0] == 3.0f && y1[n - 1] == 3.0f);
    double want = (double)n * sizeof(float) / 1e6; /* x, not y nor t */
    snprintf(what, sizeof what, "twice n=%d (x only)", n);
    check_copied(what, want, mb);
    free(x);
    free(y0);
    free(y1);
    free(t0);
    free(t1);
}

static void check_tri(int n)
{
    long e = (long)n * T;
    float *x = malloc(sizeof(float) * T), *y0 = malloc(sizeof(float) * (size_t)e), *y1 = malloc(sizeof(float) * (size_t)e);
    for (int j = 0; j < T; j++)
        x[j] = (float)j;
    for (long i = 0; i < e; i++)
        y0[i] = y1[i] = (float)(i % 13);
    tri(n, x, (float(*)[T])y0);
    gf_tri(n, x, (float(*)[T])y1);
    double mb = copied_in("tri");
    char what[128];
    snprintf(what, sizeof what, "tri n=%d equals its C body (upper triangle read)", n);
    check(what, same(y0, y1, e));
    double want = ((double)e * sizeof(float) + (double)n * sizeof(float)) / 1e6; /* y and x */
    snprintf(what, sizeof what, "tri n=%d (y and x)", n);
    check_copied(what, want, mb);
    free(x);
    free(y0);
    free(y1);
}

int main(void)
{
    setenv("GPUFUSE_COST_MODEL", "0", 1); /* host arrays stay on the GPU however small */
    if (gf_init() != GF_SUCCESS || !gf_have_device()) {
        printf("no GPU: skipped\n");
        return 77;
    }
    gf_profile_enable(1);
    gf_profile_reset();
    check_filt(3000, D);
    check_filt(3000, 40);
    check_filt(300, D);
    check_filt(1, D);
    check_filt(257, 1);
    check_twice(300000);
    check_twice(3);
    check_tri(1000);
    check_tri(5);
    check_tri(T);
    printf("%s\n", failures ? "FAILED" : "ok");
    return failures != 0;
}
