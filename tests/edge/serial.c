/* serial.c - statements outside every parallel loop on the GPU (issue 13,
 * items 1, 2 and 5), each launcher against its C body:
 *
 *  - correctness on the device: the arguments are device memory
 *    (gf_malloc), so the call cannot take the C body; outputs are poisoned
 *    (NaN, or a sentinel for integers) before the call and inputs are fresh
 *    random numbers (the seed is printed), so a kernel that writes nothing,
 *    writes the wrong place or computes from a stale scalar fails;
 *  - launches stay bounded: every launch and copy of a launcher goes
 *    through gf_call_check, which this test wraps (-Wl,--wrap) to count
 *    them; a sequential loop run as a launch per statement per iteration
 *    (n^3/6 launches for lu) cannot pass;
 *  - the cost model: with host memory, a call whose launches cost more than
 *    its work runs the C body (no launch at all), one with enough work per
 *    launch runs on the GPU; a call on host arrays whose copies cost more
 *    than the CPU's work runs on the CPU (gf_call_weigh), the same call on
 *    device arrays on the GPU.
 *
 * Needs a GPU: exit 77 without one. */
#define _POSIX_C_SOURCE 200809L /* unsetenv */
#include <gpufuse.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "devcopy.h"

#define PROTO2(ret, name, ...) ret name(__VA_ARGS__); ret gf_##name(__VA_ARGS__)
PROTO2(void, durbin, int n, const double *r, double *y, double *z);
PROTO2(void, gramschmidt, int m, int n, double *A, double *R, double *Q);
PROTO2(void, lu, int n, double *A);
PROTO2(void, cholesky, int n, double *A);
PROTO2(void, trisolv, int n, const double *L, double *x, const double *b);
PROTO2(void, spread_rows, int n, int m, float *p, float *s, float *r);
PROTO2(void, neg_scale, int n, const float *r, float *y);
PROTO2(float, between, int n, const float *x, float *y, float *w);
PROTO2(float, hi_of, int n, const float *v);
PROTO2(double, sum_from, int n, const double *v, double *out);
PROTO2(float, derived, int n, const float *x, float *y);
PROTO2(float, running, int steps, int n, const float *x, float *y);
PROTO2(void, normalise_steps, int steps, int n, float *x);
PROTO2(void, guarded, int n, const float *x, float *y);
PROTO2(void, smooth, int steps, int n, float *a, float *b);
PROTO2(void, wide_sum, int n, const double *a, const double *b, const double *c, const double *d, const double *e,
       double *out);
PROTO2(void, early, int n, int flag, const float *x, float *y);
PROTO2(int, triangle, void);

/* ---- counting what launchers queue (kernels, copies, memsets) ---- */

static long launches;
void __real_gf_call_check(void *c, int err, const char *what);
void __wrap_gf_call_check(void *c, int err, const char *what)
{
    launches++;
    __real_gf_call_check(c, err, what);
}

static int failures;

static void check(const char *what, int ok)
{
    printf("  %-70s %s\n", what, ok ? "ok" : "FAILED");
    failures += !ok;
}

/* ---- data ---- */

static uint64_t rng;

static double urand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0;
}

static void poison_d(double *p, long n)
{
    for (long i = 0; i < n; i++)
        p[i] = NAN;
}

static void poison_f(float *p, long n)
{
    for (long i = 0; i < n; i++)
        p[i] = NAN;
}

/* Every element within rtol of the reference (relative, at least 1); a NaN
 * where the reference has a number fails. */
static int close_d(const double *want, const double *got, long n, double rtol)
{
    for (long i = 0; i < n; i++) {
        double a = want[i], b = got[i];
        if (isnan(a) != isnan(b) || (!isnan(a) && fabs(a - b) > rtol * fmax(1.0, fabs(a)))) {
            printf("    element %ld: want %.17g, got %.17g\n", i, a, b);
            return 0;
        }
    }
    return 1;
}

static int close_f(const float *want, const float *got, long n, float rtol)
{
    for (long i = 0; i < n; i++) {
        float a = want[i], b = got[i];
        if (isnan(a) != isnan(b) || (!isnan(a) && fabsf(a - b) > rtol * fmaxf(1.0f, fabsf(a)))) {
            printf("    element %ld: want %.9g, got %.9g\n", i, a, b);
            return 0;
        }
    }
    return 1;
}

/* The reference must not be the poison itself: a checker that would pass a
 * call that wrote nothing is no checker. */
static int has_number_d(const double *p, long n)
{
    for (long i = 0; i < n; i++)
        if (!isnan(p[i]))
            return 1;
    return 0;
}

/* ---- the PolyBench-style kernels, device memory ---- */

static void check_durbin(int n)
{
    double *r = malloc(n * sizeof *r), *y0 = malloc(n * sizeof *y0), *z0 = malloc(n * sizeof *z0);
    double *y1 = malloc(n * sizeof *y1), *z1 = malloc(n * sizeof *z1);
    const double rho = 0.3 + 0.4 * urand();
    for (int i = 0; i < n; i++)
        r[i] = pow(rho, i + 1) * (1.0 + 0.02 * (urand() - 0.5));
    poison_d(y0, n), poison_d(z0, n);
    durbin(n, r, y0, z0);
    poison_d(y1, n), poison_d(z1, n);
    double *dr = to_dev(r, n * sizeof *r), *dy = to_dev(y1, n * sizeof *y1), *dz = to_dev(z1, n * sizeof *z1);
    long before = launches;
    gf_durbin(n, dr, dy, dz);
    long used = launches - before;
    gf_free(dr);
    from_dev(y1, dy, n * sizeof *y1);
    from_dev(z1, dz, (n - 1) * sizeof *z1);
    char what[96];
    snprintf(what, sizeof what, "durbin n=%d: y and z as the C body's (rho %.3f)", n, rho);
    check(what, has_number_d(y0, n) && close_d(y0, y1, n, 1e-9) && close_d(z0, z1, n - 1, 1e-9));
    snprintf(what, sizeof what, "durbin n=%d: %ld launches and copies, at most 5 per k", n, used);
    check(what, used > 0 && used <= 5L * n + 10);
    free(r), free(y0), free(z0), free(y1), free(z1);
}

static void check_gramschmidt(int m, int n)
{
    long na = (long)m * n, nr = (long)n * n;
    double *A = malloc(na * sizeof *A), *A0 = malloc(na * sizeof *A0), *A1 = malloc(na * sizeof *A1);
    double *R0 = malloc(nr * sizeof *R0), *R1 = malloc(nr * sizeof *R1), *Q0 = malloc(na * sizeof *Q0),
           *Q1 = malloc(na * sizeof *Q1);
    for (long i = 0; i < na; i++)
        A[i] = 2.0 * urand() - 1.0;
    memcpy(A0, A, na * sizeof *A);
    memcpy(A1, A, na * sizeof *A);
    /* R's lower triangle is never written: the same poison on both sides */
    poison_d(R0, nr), poison_d(R1, nr), poison_d(Q0, na), poison_d(Q1, na);
    gramschmidt(m, n, A0, R0, Q0);
    double *dA = to_dev(A1, na * sizeof *A1), *dR = to_dev(R1, nr * sizeof *R1), *dQ = to_dev(Q1, na * sizeof *Q1);
    long before = launches;
    gf_gramschmidt(m, n, dA, dR, dQ);
    long used = launches - before;
    from_dev(A1, dA, na * sizeof *A1);
    from_dev(R1, dR, nr * sizeof *R1);
    from_dev(Q1, dQ, na * sizeof *Q1);
    char what[96];
    snprintf(what, sizeof what, "gramschmidt %dx%d: A, R and Q as the C body's", m, n);
    check(what, has_number_d(Q0, na) && close_d(A0, A1, na, 1e-9) && close_d(R0, R1, nr, 1e-9) &&
                    close_d(Q0, Q1, na, 1e-9));
    snprintf(what, sizeof what, "gramschmidt %dx%d: %ld launches and copies, at most 5 per column", m, n, used);
    check(what, used > 0 && used <= 5L * n + 10);
    free(A), free(A0), free(A1), free(R0), free(R1), free(Q0), free(Q1);
}

static void check_lu(int n, int device)
{
    long nn = (long)n * n;
    double *A0 = malloc(nn * sizeof *A0), *A1 = malloc(nn * sizeof *A1);
    for (long i = 0; i < nn; i++)
        A0[i] = 2.0 * urand() - 1.0;
    for (int i = 0; i < n; i++)
        A0[(long)i * n + i] += n;  /* diagonally dominant: no pivoting needed */
    memcpy(A1, A0, nn * sizeof *A0);
    lu(n, A0);
    long before = launches;
    char what[112];
    if (device) {
        double *dA = to_dev(A1, nn * sizeof *A1);
        gf_lu(n, dA);
        long used = launches - before;
        from_dev(A1, dA, nn * sizeof *A1);
        snprintf(what, sizeof what, "lu n=%d on the GPU: L and U as the C body's", n);
        check(what, close_d(A0, A1, nn, 1e-9));
        snprintf(what, sizeof what, "lu n=%d on the GPU: %ld launches and copies, at most 3 per row", n, used);
        check(what, used > 0 && used <= 3L * n + 10);
    } else {
        gf_lu(n, A1);
        long used = launches - before;
        snprintf(what, sizeof what, "lu n=%d, host memory: L and U as the C body's", n);
        check(what, close_d(A0, A1, nn, 1e-12));
        snprintf(what, sizeof what, "lu n=%d, host memory: the C body runs (%ld launches)", n, used);
        check(what, used == 0);
    }
    free(A0), free(A1);
}

/* A one-thread statement run by the threads of the map after it (the
 * square root of the diagonal, x[i] / L[i][i]): the results, and fewer
 * launches than one per statement per column.  n = 1: the map has no
 * element, the statement still runs. */
static void check_cholesky(int n)
{
    long nn = (long)n * n;
    double *A0 = malloc(nn * sizeof *A0), *A1 = malloc(nn * sizeof *A1);
    for (int i = 0; i < n; i++)
        for (int j = 0; j <= i; j++)
            A0[(long)i * n + j] = A0[(long)j * n + i] = i == j ? n + urand() : 0.5 * urand() - 0.25;
    memcpy(A1, A0, nn * sizeof *A0);
    cholesky(n, A0);
    double *dA = to_dev(A1, nn * sizeof *A1);
    long before = launches;
    gf_cholesky(n, dA);
    long used = launches - before;
    poison_d(A1, nn);
    from_dev(A1, dA, nn * sizeof *A1);
    char what[112];
    snprintf(what, sizeof what, "cholesky n=%d on the GPU: L as the C body's", n);
    check(what, has_number_d(A0, nn) && close_d(A0, A1, nn, 1e-9));
    /* three kernels a column (the square root; the column's division with
     * the diagonal's update, which moves up past the trailing update to
     * join it; the trailing update); the first runs in the second's threads */
    snprintf(what, sizeof what, "  ... %ld launches and copies, at most 2 per column", used);
    check(what, used > 0 && used <= 2L * n + 10);
    gf_free(dA);
    free(A0), free(A1);
}

static void check_trisolv(int n)
{
    long nn = (long)n * n;
    double *L = calloc(nn, sizeof *L), *b = calloc(n, sizeof *b), *x0 = malloc(n * sizeof *x0),
           *x1 = malloc(n * sizeof *x1);
    for (int i = 0; i < n; i++) {
        b[i] = urand() - 0.5;
        for (int j = 0; j < n; j++)
            L[(long)i * n + j] = j < i ? (urand() - 0.5) / n : j == i ? 1.0 + urand() : NAN;  /* never read */
    }
    trisolv(n, L, x0, b);
    poison_d(x1, n);
    double *dL = to_dev(L, nn * sizeof *L), *db = to_dev(b, n * sizeof *b), *dx = to_dev(x1, n * sizeof *x1);
    long before = launches;
    gf_trisolv(n, dL, dx, db);
    long used = launches - before;
    poison_d(x1, n);
    from_dev(x1, dx, n * sizeof *x1);
    char what[112];
    snprintf(what, sizeof what, "trisolv n=%d on the GPU: x as the C body's", n);
    check(what, has_number_d(x0, n) && close_d(x0, x1, n, 1e-9));
    snprintf(what, sizeof what, "  ... %ld launches and copies, at most 1 per row", used);
    check(what, used > 0 && used <= n + 10L);
    gf_free(dL), gf_free(db), gf_free(dx);
    free(L), free(b), free(x0), free(x1);
}

static void check_spread_rows(int n, int m)
{
    long nm = (long)n * m;
    float *p0 = malloc(nm * sizeof *p0), *p1 = malloc(nm * sizeof *p1), s0[5], s1[5], r0[5], r1[5];
    for (long i = 0; i < nm; i++)
        p0[i] = p1[i] = (float)urand();
    for (int t = 0; t < 5; t++) {
        s0[t] = s1[t] = NAN;
        r0[t] = r1[t] = (float)urand();
    }
    spread_rows(n, m, p0, s0, r0);
    float *dp = to_dev(p1, nm * sizeof *p1), *ds = to_dev(s1, sizeof s1), *dr = to_dev(r1, sizeof r1);
    long before = launches;
    gf_spread_rows(n, m, dp, ds, dr);
    long used = launches - before;
    poison_f(p1, nm);
    from_dev(p1, dp, nm * sizeof *p1);
    from_dev(s1, ds, sizeof s1);
    from_dev(r1, dr, sizeof r1);
    char what[112];
    snprintf(what, sizeof what, "spread_rows %dx%d on the GPU: p, s and r as the C body's", n, m);
    check(what, close_f(p0, p1, nm, 1e-5f) && close_f(s0, s1, 4, 1e-6f) && close_f(r0, r1, 5, 1e-5f));
    /* 4 steps: a launch each (the statement runs in the map's threads; 8
     * launches without that) and the ticket's one memset */
    snprintf(what, sizeof what, "  ... %ld launches and copies, 1 per step and the ticket's memset", used);
    check(what, used > 0 && used <= 4 + 1);
    gf_free(dp), gf_free(ds), gf_free(dr);
    free(p0), free(p1);
}

/* ---- scalars around parallel loops, device memory ---- */

static void check_neg_scale(int n)
{
    float *r = malloc(n * sizeof *r), *y0 = malloc(n * sizeof *y0), *y1 = malloc(n * sizeof *y1);
    for (int i = 0; i < n; i++)
        r[i] = (float)(2.0 * urand() - 1.0);
    r[0] = 0.5f + (float)urand();  /* -r[0] is never 0: every element of y depends on it */
    poison_f(y0, n), poison_f(y1, n);
    neg_scale(n, r, y0);
    float *dr = to_dev(r, n * sizeof *r), *dy = to_dev(y1, n * sizeof *y1);
    gf_neg_scale(n, dr, dy);
    gf_free(dr);
    from_dev(y1, dy, n * sizeof *y1);
    char what[96];
    snprintf(what, sizeof what, "a = -r[0] before the loop, n=%d: every element", n);
    check(what, close_f(y0, y1, n, 1e-6f));
    free(r), free(y0), free(y1);
}

static void check_between(int n)
{
    float *x = malloc(n * sizeof *x), *y0 = malloc(n * sizeof *y0), *w0 = malloc(n * sizeof *w0);
    float *y1 = malloc(n * sizeof *y1), *w1 = malloc(n * sizeof *w1);
    for (int i = 0; i < n; i++)
        x[i] = (float)(2.0 * urand() - 1.0);
    poison_f(y0, n), poison_f(w0, n), poison_f(y1, n), poison_f(w1, n);
    float want = between(n, x, y0, w0);
    float *dx = to_dev(x, n * sizeof *x), *dy = to_dev(y1, n * sizeof *y1), *dw = to_dev(w1, n * sizeof *w1);
    float got = gf_between(n, dx, dy, dw);
    gf_free(dx);
    from_dev(y1, dy, n * sizeof *y1);
    from_dev(w1, dw, n * sizeof *w1);
    char what[96];
    snprintf(what, sizeof what, "scalars between parallel loops, n=%d: y, w and the return value", n);
    check(what, close_f(y0, y1, n, 1e-5f) && close_f(w0, w1, n, 1e-5f) && close_f(&want, &got, 1, 1e-5f));
    free(x), free(y0), free(w0), free(y1), free(w1);
}

static void check_reductions(int n)
{
    float *v = malloc(n * sizeof *v);
    double *vd = malloc(n * sizeof *vd);
    for (int i = 0; i < n; i++) {
        v[i] = (float)(urand() - 2.0);  /* all negative: max from 0 would be wrong */
        vd[i] = urand();
    }
    v[0] = 0.25f;                        /* ... and the first element is the largest */
    float *dv = to_dev(v, n * sizeof *v);
    float want = hi_of(n, v), got = gf_hi_of(n, dv);
    gf_free(dv);
    char what[96];
    snprintf(what, sizeof what, "max started from v[0], n=%d: %g", n, got);
    check(what, want == got);
    double out0 = NAN, out1 = NAN;
    double *dvd = to_dev(vd, n * sizeof *vd), *dout = to_dev(&out1, sizeof out1);
    double wantd = sum_from(n, vd, &out0), gotd = gf_sum_from(n, dvd, dout);
    gf_free(dvd);
    from_dev(&out1, dout, sizeof out1);
    snprintf(what, sizeof what, "sum started from 2*v[n-1], n=%d: returned and stored", n);
    check(what, close_d(&wantd, &gotd, 1, 1e-12) && close_d(&out0, &out1, 1, 1e-12));
    free(v), free(vd);
}

static void check_derived(int n)
{
    float *x = malloc(n * sizeof *x), *y0 = malloc(n * sizeof *y0), *y1 = malloc(n * sizeof *y1);
    for (int i = 0; i < n; i++)
        x[i] = (float)(urand() + 1.0);  /* mean about 1.5, mean of squares about 2.3 */
    poison_f(y0, n), poison_f(y1, n);
    float want = derived(n, x, y0);
    float *dx = to_dev(x, n * sizeof *x), *dy = to_dev(y1, n * sizeof *y1);
    float got = gf_derived(n, dx, dy);
    gf_free(dx);
    from_dev(y1, dy, n * sizeof *y1);
    char what[96];
    snprintf(what, sizeof what, "a mean kept after its sum is overwritten, n=%d", n);
    check(what, close_f(y0, y1, n, 1e-4f) && close_f(&want, &got, 1, 1e-4f));
    free(x), free(y0), free(y1);
}

static void check_normalise(int steps, int n)
{
    float *x0 = malloc(n * sizeof *x0), *x1 = malloc(n * sizeof *x1);
    for (int i = 0; i < n; i++)
        x0[i] = x1[i] = (float)(2.0 * urand() - 1.0);
    normalise_steps(steps, n, x0);
    float *dx = to_dev(x1, n * sizeof *x1);
    long before = launches;
    gf_normalise_steps(steps, n, dx);
    long used = launches - before;
    from_dev(x1, dx, n * sizeof *x1);
    char what[112];
    snprintf(what, sizeof what, "a value derived from each step's sum, %d steps, n=%d", steps, n);
    check(what, close_f(x0, x1, n, 1e-4f));
    /* per step: the sum, the derived value (a serial kernel), the map (before: the sum, a wait
     * for it to come back, the map; tests/golden/serial_carry.c checks that no wait is left) */
    snprintf(what, sizeof what, "  ... %ld launches and copies, at most 3 per step", used);
    check(what, used > 0 && used <= 3L * steps + 10);
    free(x0), free(x1);
}

static void check_running(int steps, int n)
{
    float *x = malloc(n * sizeof *x), *y0 = malloc(n * sizeof *y0), *y1 = malloc(n * sizeof *y1);
    for (int i = 0; i < n; i++)
        x[i] = (float)(2.0 * urand() - 1.0);
    poison_f(y0, n), poison_f(y1, n);
    float want = running(steps, n, x, y0);
    float *dx = to_dev(x, n * sizeof *x), *dy = to_dev(y1, n * sizeof *y1);
    long before = launches;
    float got = gf_running(steps, n, dx, dy);
    long used = launches - before;
    gf_free(dx);
    from_dev(y1, dy, n * sizeof *y1);
    char what[112];
    snprintf(what, sizeof what, "a running value across %d steps, n=%d: y and the value", steps, n);
    check(what, close_f(y0, y1, n, 1e-4f) && close_f(&want, &got, 1, 1e-4f));
    snprintf(what, sizeof what, "  ... %ld launches and copies, at most 5 per step", used);
    check(what, used > 0 && used <= 5L * steps + 10);
    free(x), free(y0), free(y1);
}

static void check_guarded(int n)
{
    float *x = malloc((n + 2) * sizeof *x), *y0 = malloc((n + 2) * sizeof *y0), *y1 = malloc((n + 2) * sizeof *y1);
    for (int i = 0; i < n + 2; i++)
        x[i] = (float)urand();
    poison_f(y0, n + 2), poison_f(y1, n + 2);
    guarded(n, x, y0);
    float *dx = to_dev(x, (n + 2) * sizeof *x), *dy = to_dev(y1, (n + 2) * sizeof *y1);
    gf_guarded(n, dx, dy);
    gf_free(dx);
    from_dev(y1, dy, (n + 2) * sizeof *y1);
    char what[96];
    snprintf(what, sizeof what, "an early return on the host, n=%d: y (untouched when it returns)", n);
    /* NaN == NaN here: where the C body writes nothing the launcher must not either */
    check(what, close_f(y0, y1, n + 2, 1e-6f));
    free(x), free(y0), free(y1);
}

/* Host memory: the staged y must not overwrite y when the call returns
 * before writing it. */
static void check_early(int n)
{
    float *x = malloc(n * sizeof *x), *y0 = malloc(n * sizeof *y0), *y1 = malloc(n * sizeof *y1);
    for (int i = 0; i < n; i++) {
        x[i] = (float)urand();
        y0[i] = y1[i] = (float)urand() + 2.0f;
    }
    for (int flag = 1; flag >= 0; flag--) {
        early(n, flag, x, y0);
        gf_early(n, flag, x, y1);
        char what[96];
        snprintf(what, sizeof what, "a return before the only write, flag=%d, host memory: y", flag);
        check(what, close_f(y0, y1, n, 0.0f));
    }
    free(x), free(y0), free(y1);
}

/* ---- the cost model, host memory ---- */

static void check_smooth(int steps, int n)
{
    float *a0 = malloc(n * sizeof *a0), *b0 = malloc(n * sizeof *b0), *a1 = malloc(n * sizeof *a1),
          *b1 = malloc(n * sizeof *b1);
    for (int i = 0; i < n; i++)
        a0[i] = a1[i] = (float)urand();
    poison_f(b0, n), poison_f(b1, n);
    b0[0] = b1[0] = b0[n - 1] = b1[n - 1] = 0;
    smooth(steps, n, a0, b0);
    long before = launches;
    gf_smooth(steps, n, a1, b1);
    long used = launches - before;
    char what[112];
    snprintf(what, sizeof what, "time loop, %d steps of %d elements, host memory: a and b", steps, n);
    check(what, close_f(a0, a1, n, 1e-5f) && close_f(b0, b1, n, 1e-5f));
    snprintf(what, sizeof what, "  ... enough work per launch: on the GPU (%ld launches and copies)", used);
    check(what, used >= 2L * steps);
    free(a0), free(b0), free(a1), free(b1);
}

/* ---- copies against work (gf_call_weigh) ---- */

static void check_weigh(int n)
{
    double *in[5], *dev[5], *out0 = malloc(n * sizeof *out0), *out1 = malloc(n * sizeof *out1);
    for (int k = 0; k < 5; k++) {
        in[k] = malloc(n * sizeof *in[k]);
        for (int i = 0; i < n; i++)
            in[k][i] = urand();
    }
    wide_sum(n, in[0], in[1], in[2], in[3], in[4], out0);
    poison_d(out1, n);
    long before = launches;
    gf_wide_sum(n, in[0], in[1], in[2], in[3], in[4], out1);
    long used = launches - before;
    char what[112];
    snprintf(what, sizeof what, "wide_sum n=%d, host memory: 48 bytes copied per addition", n);
    check(what, close_d(out0, out1, n, 0.0));
    snprintf(what, sizeof what, "  ... the copies cost more than the CPU's work: no launch (%ld)", used);
    check(what, used == 0);
    for (int k = 0; k < 5; k++)
        dev[k] = to_dev(in[k], n * sizeof(double));
    double *dout = to_dev(out1, n * sizeof(double));
    before = launches;
    gf_wide_sum(n, dev[0], dev[1], dev[2], dev[3], dev[4], dout);
    used = launches - before;
    poison_d(out1, n);
    from_dev(out1, dout, n * sizeof(double));
    snprintf(what, sizeof what, "wide_sum n=%d, device memory", n);
    check(what, close_d(out0, out1, n, 0.0));
    snprintf(what, sizeof what, "  ... nothing to copy: on the GPU (%ld launches)", used);
    check(what, used >= 1);
    for (int k = 0; k < 5; k++)
        gf_free(dev[k]), free(in[k]);
    free(out0), free(out1);
}

int main(void)
{
    unsetenv("GPUFUSE_COST_MODEL"); /* the cost model is under test */
    if (gf_init() != GF_SUCCESS || !gf_have_device()) {
        printf("no GPU (%s): skipped\n", gf_last_error());
        return 77;
    }
    const char *seed = getenv("SERIAL_SEED");
    rng = seed ? strtoull(seed, NULL, 0) : (uint64_t)time(NULL) * 2654435761u + 1;
    printf("statements outside parallel loops on the GPU (SERIAL_SEED=%llu)\n", (unsigned long long)rng);
    check_durbin(300);
    check_durbin(1);
    check_gramschmidt(70, 40);
    check_lu(64, 1);
    check_cholesky(200);
    check_cholesky(1 + (int)(urand() * 90));
    check_cholesky(1);
    check_trisolv(300);
    check_trisolv(1 + (int)(urand() * 90));
    check_trisolv(1);
    check_spread_rows(300, 64);
    check_spread_rows(1, 5);
    check_lu(64, 0);
    check_neg_scale(1000);
    check_neg_scale(1);
    check_between(1000);
    check_reductions(5000);
    check_reductions(1);
    check_derived(3000);
    check_normalise(30, 5000);
    check_running(20, 777);
    check_running(0, 5);
    check_guarded(100);
    check_guarded(1);
    check_early(1000);
    check_smooth(4, 1 << 22);
    check_weigh(1 << 20);
    check("no parameters: triangle() = 4950", gf_triangle() == triangle() && triangle() == 4950);
    printf("%s\n", failures ? "FAILED" : "every function agrees with its C body, with bounded launches");
    return failures ? 1 : 0;
}
