/* profile.c - per-function call statistics (GPUFUSE_PROFILE=1 or
 * gf_profile_enable): calls, GPU time between the call's kernels' start and
 * end events, achieved bandwidth from the bytes launchers report, and its
 * share of the device's peak; printed at exit or by gf_profile_print. */
#include "rt.h"

#include <gpufuse/launch.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int gf_profiling;

typedef struct slot {
    const char *function, *file;
    int line;
    uint64_t calls, device_calls;
    double gpu_ms, wall_ms, bytes;
} slot;

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static slot *slots;
static int nslots, capslots;

static void print_at_exit(void)
{
    gf_profile_print(NULL);
    pthread_mutex_lock(&mu);
    free(slots);
    slots = NULL;
    nslots = capslots = 0;
    pthread_mutex_unlock(&mu);
}

void gf_profile_init_env(void)
{
    const char *v = getenv("GPUFUSE_PROFILE");
    if (v && *v && strcmp(v, "0")) {
        gf_profiling = 1;
        gf_rt.profile_env = 1;
        atexit(print_at_exit);
    }
}

void gf_profile_add(gf_site *site, int device_path, double gpu_ms, double wall_ms, size_t bytes)
{
    pthread_mutex_lock(&mu);
    int i = site->profile_slot;
    if (i < 0 || i >= nslots || slots[i].function != site->function) {
        if (nslots == capslots) {
            int cap = capslots ? capslots * 2 : 32;
            slot *v = realloc(slots, (size_t)cap * sizeof *v);
            if (!v) {
                pthread_mutex_unlock(&mu);
                return;
            }
            slots = v;
            capslots = cap;
        }
        i = nslots++;
        slots[i] = (slot){site->function, site->file, site->line, 0, 0, 0, 0, 0};
        site->profile_slot = i;
    }
    slot *s = &slots[i];
    s->calls++;
    s->wall_ms += wall_ms;
    if (device_path) {
        s->device_calls++;
        s->gpu_ms += gpu_ms;
        s->bytes += (double)bytes;
    }
    pthread_mutex_unlock(&mu);
}

gf_status gf_profile_enable(int on)
{
    gf_runtime_get();
    gf_profiling = on != 0;
    return GF_SUCCESS;
}

gf_status gf_profile_reset(void)
{
    pthread_mutex_lock(&mu);
    for (int i = 0; i < nslots; i++) {
        slots[i].calls = slots[i].device_calls = 0;
        slots[i].gpu_ms = slots[i].wall_ms = slots[i].bytes = 0;
    }
    pthread_mutex_unlock(&mu);
    return GF_SUCCESS;
}

static int by_time(const void *a, const void *b)
{
    const slot *x = a, *y = b;
    double tx = x->gpu_ms > 0 ? x->gpu_ms : x->wall_ms, ty = y->gpu_ms > 0 ? y->gpu_ms : y->wall_ms;
    return tx < ty ? 1 : tx > ty ? -1 : 0;
}

gf_status gf_profile_print(void *file)
{
    FILE *f = file ? (FILE *)file : stderr;
    const gf_runtime *rt = gf_runtime_get();
    double peak = 0;
    if (rt->cpu) {
        fprintf(f, "gpufuse profile (CPU fallback, no GPU times)\n");
    } else {
        const gf_device_props *p = &rt->props[rt->default_device];
        peak = p->peak_bandwidth_gbs;
        if (peak > 0)
            fprintf(f, "gpufuse profile (device %d: %s, peak %.0f GB/s)\n", rt->default_device, p->name, peak);
        else
            fprintf(f, "gpufuse profile (device %d: %s, peak bandwidth unknown: set GPUFUSE_PEAK_BW)\n",
                    rt->default_device, p->name);
    }
    pthread_mutex_lock(&mu);
    slot *v = nslots ? malloc((size_t)nslots * sizeof *v) : NULL;
    int n = v ? nslots : 0;
    if (v)
        memcpy(v, slots, (size_t)n * sizeof *v);
    pthread_mutex_unlock(&mu);
    qsort(v, (size_t)n, sizeof *v, by_time);
    fprintf(f, "%-24s %8s %8s %10s %10s %9s %6s %10s  %s\n", "function", "calls", "on GPU", "GPU ms",
            "GPU us/call", "GB/s", "%peak", "wall ms", "source");
    for (int i = 0; i < n; i++) {
        slot *s = &v[i];
        if (!s->calls)
            continue;
        double gbs = s->gpu_ms > 0 ? s->bytes / (s->gpu_ms * 1e-3) / 1e9 : 0;
        char pk[16] = "-", gb[16] = "-";
        if (gbs > 0) {
            snprintf(gb, sizeof gb, "%.1f", gbs);
            if (peak > 0)
                snprintf(pk, sizeof pk, "%.1f", 100.0 * gbs / peak);
        }
        fprintf(f, "%-24s %8llu %8llu %10.3f %10.2f %9s %6s %10.3f  %s:%d\n", s->function,
                (unsigned long long)s->calls, (unsigned long long)s->device_calls, s->gpu_ms,
                s->device_calls ? 1e3 * s->gpu_ms / (double)s->device_calls : 0.0, gb, pk, s->wall_ms,
                s->file ? s->file : "?", s->line);
    }
    free(v);
    fflush(f);
    return GF_SUCCESS;
}
