/* profile.c - per-function call statistics (GPUFUSE_PROFILE=1 or
 * gf_profile_enable): calls by the path they took (GPU, the CPU plan, the C
 * body), the whole call's wall time, the GPU time between the call's
 * kernels' start and end events, achieved bandwidth from the bytes
 * launchers report and its share of the device's peak, host bytes staged
 * to and from the device, verify mode's counts, and the calls whose kernels
 * ran as a CUDA graph (built from the call, or replayed); printed at exit or
 * by gf_profile_print. */
#include "rt.h"

#include <gpufuse/launch.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int gf_profiling;
int gf_profile_calls; /* GPUFUSE_PROFILE=calls: a line per call too (gf_profile_call_line) */

typedef struct slot {
    const char *function, *file;
    int line;
    uint64_t calls, path[4];         /* by gf_path */
    double gpu_ms, wall_ms, bytes, staged_in, staged_out;
    uint64_t verified, differed;     /* GPUFUSE_VERIFY */
    uint64_t captured, replayed;     /* graph.c: GF_GRAPH_CAPTURE, GF_GRAPH_REPLAY */
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
        gf_profile_calls = !strcmp(v, "calls");
        gf_rt.profile_env = 1;
        atexit(print_at_exit);
    }
}

/* The slot of `site` (under mu): cached in the site, else found by name and
 * source line (a launcher and its verifying entry point have a site each),
 * else a new one; NULL out of memory. */
static slot *slot_of(gf_site *site)
{
    int i = site->profile_slot;
    if (i >= 0 && i < nslots && slots[i].function == site->function)
        return &slots[i];
    for (i = 0; i < nslots; i++)
        if (!strcmp(slots[i].function, site->function) && slots[i].line == site->line &&
            !strcmp(slots[i].file ? slots[i].file : "", site->file ? site->file : "")) {
            site->profile_slot = i;
            return &slots[i];
        }
    if (nslots == capslots) {
        int cap = capslots ? capslots * 2 : 32;
        slot *v = realloc(slots, (size_t)cap * sizeof *v);
        if (!v)
            return NULL;
        slots = v;
        capslots = cap;
    }
    i = nslots++;
    slots[i] = (slot){.function = site->function, .file = site->file, .line = site->line};
    site->profile_slot = i;
    return &slots[i];
}

void gf_profile_add(gf_site *site, const gf_call_stats *st)
{
    pthread_mutex_lock(&mu);
    slot *s = slot_of(site);
    if (s) {
        s->calls++;
        if (st->path >= 0 && st->path < 4)
            s->path[st->path]++;
        if (st->wall_ms >= 0)
            s->wall_ms += st->wall_ms;
        if (st->timed) {
            s->gpu_ms += st->gpu_ms;
            s->bytes += (double)st->bytes;
        }
        s->staged_in += (double)st->staged_in;
        s->staged_out += (double)st->staged_out;
        s->captured += st->graph == GF_GRAPH_CAPTURE;
        s->replayed += st->graph == GF_GRAPH_REPLAY;
        if (gf_profile_calls && st->timed) /* the launcher's phases; its wall time is their sum */
            fprintf(stderr,
                    "gpufuse profile: %s (%s:%d) call %llu: map %.3f ms (%.1f MB in), launch %.3f ms, "
                    "end %.3f ms (%.1f MB out), GPU %.3f ms, launcher %.3f ms\n",
                    s->function, s->file ? s->file : "?", s->line, (unsigned long long)s->calls, st->map_ms,
                    st->staged_in / 1e6, st->launch_ms, st->end_ms, st->staged_out / 1e6, st->gpu_ms,
                    st->map_ms + st->launch_ms + st->end_ms);
        const gf_stage_stats *g = st->stage;
        if (gf_profile_calls && st->timed && g && (st->staged_in || st->staged_out))
            fprintf(stderr,
                    "gpufuse profile: %s call %llu staging: ring wait %.3f ms, CPU copies %.3f ms "
                    "(%d on the OpenMP team, %d on the helpers, %d alone), DMA wait %.3f ms, driver's path %.3f ms\n",
                    s->function, (unsigned long long)s->calls, g->ring_ms, g->cpu_ms, g->on_team, g->on_helpers,
                    g->alone, g->dma_ms, g->driver_ms);
    }
    pthread_mutex_unlock(&mu);
}

void gf_profile_wall(gf_site *site, double wall_ms)
{
    pthread_mutex_lock(&mu);
    slot *s = slot_of(site);
    if (s)
        s->wall_ms += wall_ms;
    pthread_mutex_unlock(&mu);
}

void gf_profile_verified(gf_site *site, int differed)
{
    pthread_mutex_lock(&mu);
    slot *s = slot_of(site);
    if (s) {
        s->verified++;
        s->differed += differed != 0;
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
    for (int i = 0; i < nslots; i++)
        slots[i] = (slot){.function = slots[i].function, .file = slots[i].file, .line = slots[i].line};
    pthread_mutex_unlock(&mu);
    return GF_SUCCESS;
}

static int by_time(const void *a, const void *b)
{
    const slot *x = a, *y = b;
    return x->wall_ms < y->wall_ms ? 1 : x->wall_ms > y->wall_ms ? -1 : 0;
}

gf_status gf_profile_print(void *file)
{
    FILE *f = file ? (FILE *)file : stderr;
    const gf_runtime *rt = gf_runtime_get();
    double peak = 0;
    if (rt->cpu) {
        fprintf(f, "gpufuse profile (CPU fallback: %s)\n", gf_cpu_reason());
    } else {
        const gf_device_props *p = gf_device_props_named(rt->default_device);
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
    int verified = 0, graphs = 0; /* GPUFUSE_VERIFY, CUDA graphs: two more columns each */
    for (int i = 0; i < n; i++) {
        verified |= v[i].verified > 0;
        graphs |= v[i].captured > 0 || v[i].replayed > 0;
    }
    fprintf(f, "%-24s %7s %7s %7s %7s %10s %9s %8s %6s %10s %9s %9s ", "function", "calls", "GPU", "CPU", "C body",
            "GPU ms", "us/call", "GB/s", "%peak", "wall ms", "in MB", "out MB");
    if (verified)
        fprintf(f, "%8s %8s ", "verified", "differed");
    if (graphs)
        fprintf(f, "%8s %8s ", "captured", "replayed");
    fprintf(f, " %s\n", "source");
    for (int i = 0; i < n; i++) {
        slot *s = &v[i];
        if (!s->calls && !s->verified)
            continue;
        double gbs = s->gpu_ms > 0 ? s->bytes / (s->gpu_ms * 1e-3) / 1e9 : 0;
        uint64_t dev = s->path[GF_PATH_DEVICE];
        char pk[16] = "-", gb[16] = "-", us[16] = "-", gm[24] = "-";
        if (gbs > 0) {
            snprintf(gb, sizeof gb, "%.1f", gbs);
            if (peak > 0)
                snprintf(pk, sizeof pk, "%.1f", 100.0 * gbs / peak);
        }
        if (dev && s->gpu_ms > 0) {
            snprintf(gm, sizeof gm, "%.3f", s->gpu_ms);
            snprintf(us, sizeof us, "%.2f", 1e3 * s->gpu_ms / (double)dev);
        }
        fprintf(f, "%-24s %7llu %7llu %7llu %7llu %10s %9s %8s %6s %10.3f %9.1f %9.1f ", s->function,
                (unsigned long long)s->calls, (unsigned long long)dev, (unsigned long long)s->path[GF_PATH_HOST],
                (unsigned long long)s->path[GF_PATH_SEQUENTIAL], gm, us, gb, pk, s->wall_ms, s->staged_in / 1e6,
                s->staged_out / 1e6);
        if (verified)
            fprintf(f, "%8llu %8llu ", (unsigned long long)s->verified, (unsigned long long)s->differed);
        if (graphs)
            fprintf(f, "%8llu %8llu ", (unsigned long long)s->captured, (unsigned long long)s->replayed);
        fprintf(f, " %s:%d\n", s->file ? s->file : "?", s->line);
    }
    free(v);
    fflush(f);
    return GF_SUCCESS;
}
