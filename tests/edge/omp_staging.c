/* omp_staging.c - staging copies over the program's OpenMP threads
 * (gf_host_team, docs/runtime.md "Staging copies on OpenMP's threads").
 * The .gf.cu of omp_staging_kernels.c is compiled with OpenMP; its
 * constructor registers its team function, which this test wraps
 * (-Wl,--wrap=gf_host_team) to count the jobs it runs and the threads that
 * ran parts.  Right after an OpenMP loop fills the inputs (OpenMP's threads
 * still spinning), the launcher runs on the GPU with 32 MiB arrays: the
 * results must equal the C body's bit for bit (x + 2y and acc - y are exact
 * in either order), the team must have run the copies, and with
 * OMP_WAIT_POLICY=passive (set by the second test entry) it must decline
 * them and the runtime's own threads copy.  Needs a GPU: exit 77 without one. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <gpufuse.h>
#include <gpufuse/launch.h>
#include <omp.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void mix(int n, const float *x, const float *y, float *acc, float *out);    /* the C body */
void gf_mix(int n, const float *x, const float *y, float *acc, float *out); /* the launcher */

/* The unit's team function, and counts of what it did. */
static gf_team_fn unit_team;
static atomic_int jobs, declined, parts;
static void (*real_part)(void *, int, int);

static void count_part(void *ctx, int i, int n)
{
    atomic_fetch_add(&parts, 1);
    real_part(ctx, i, n);
}

static int counting_team(void (*part)(void *, int, int), void *ctx)
{
    real_part = part;
    int ran = unit_team(count_part, ctx);
    atomic_fetch_add(ran ? &jobs : &declined, 1);
    return ran;
}

void __real_gf_host_team(gf_team_fn fn, int on);
void __wrap_gf_host_team(gf_team_fn fn, int on)
{
    if (on) {
        unit_team = fn;
        __real_gf_host_team(counting_team, 1);
    } else {
        __real_gf_host_team(counting_team, 0);
    }
}

static int failures;

static void check(const char *what, int ok)
{
    printf("  %-66s %s\n", what, ok ? "ok" : "FAILED");
    failures += !ok;
}

int main(void)
{
    setenv("GPUFUSE_COST_MODEL", "0", 1); /* the GPU, whatever the copies cost */
    if (gf_init() != GF_SUCCESS || !gf_have_device()) {
        printf("no GPU: skipped\n");
        return 77;
    }
    const char *wp = getenv("OMP_WAIT_POLICY");
    int passive = wp && (*wp == 'p' || *wp == 'P');
    check("the unit registered its OpenMP team", unit_team != NULL);
    if (!unit_team)
        return 1;
    const int n = 8 << 20; /* 32 MiB per array: four staging chunks */
    float *x = malloc(sizeof(float) * n), *y = malloc(sizeof(float) * n);
    float *acc = malloc(sizeof(float) * n), *acc_ref = malloc(sizeof(float) * n);
    float *out = malloc(sizeof(float) * n), *out_ref = malloc(sizeof(float) * n);
    if (!x || !y || !acc || !acc_ref || !out || !out_ref)
        return 1;
    for (int round = 0; round < 3; round++) {
        /* an OpenMP loop just before the call: its threads spin after it */
        #pragma omp parallel for
        for (int i = 0; i < n; i++) {
            x[i] = (float)((i * 37 + round) % 1001) * 0.25f;
            y[i] = (float)((i * 11 + 3 * round) % 517) * 0.5f;
            acc[i] = acc_ref[i] = (float)(i % 97);
        }
        atomic_store(&jobs, 0);
        atomic_store(&declined, 0);
        atomic_store(&parts, 0);
        float *o = round == 0 ? out : malloc(sizeof(float) * n); /* fresh pages each round */
        if (!o)
            return 1;
        gf_mix(n, x, y, acc, o);         /* the launcher: on the GPU */
        mix(n, x, y, acc_ref, out_ref);  /* the C body */
        char what[128];
        snprintf(what, sizeof what, "round %d: out and acc equal the C body's, bit for bit", round);
        check(what, !memcmp(o, out_ref, sizeof(float) * n) && !memcmp(acc, acc_ref, sizeof(float) * n));
        int j = atomic_load(&jobs), d = atomic_load(&declined), p = atomic_load(&parts);
        if (passive) {
            snprintf(what, sizeof what, "round %d: passive: every copy declined (%d), none on the team", round, d);
            check(what, d > 0 && j == 0 && p == 0);
        } else {
            /* in: x, y, acc (4 chunks each); back: acc, out (populated, 4 chunks each) */
            snprintf(what, sizeof what, "round %d: copies on the team: %d jobs, %d parts", round, j, p);
            check(what, j >= 12 && d == 0 && p >= j * 2 && omp_get_max_threads() >= 2);
        }
        if (o != out)
            free(o);
    }
    /* inside a parallel region the team declines: the runtime copies */
    atomic_store(&jobs, 0);
    atomic_store(&declined, 0);
    #pragma omp parallel num_threads(2)
    {
        #pragma omp single
        gf_mix(n, x, y, acc, out);
    }
    check("inside a parallel region: declined, the runtime's threads copied",
          atomic_load(&declined) > 0 && atomic_load(&jobs) == 0);
    free(x), free(y), free(acc), free(acc_ref), free(out), free(out_ref);
    printf("%s\n", failures ? "FAILED" : "ok");
    return failures != 0;
}
