/* stream.c - gf_stream/gf_event over cudaStream_t/cudaEvent_t, the
 * per-thread current stream, and gf_sync.  On the CPU fallback everything
 * runs in order on the calling thread: streams are handles without a CUDA
 * stream, events record the host clock. */
#include "rt.h"

#include <cuda_runtime_api.h>
#include <stdlib.h>

struct gf_stream_s {
    cudaStream_t s;
    int device;
};

struct gf_event_s {
    cudaEvent_t e;               /* NULL on the CPU fallback */
    double ms;                   /* CPU fallback: when it was recorded */
};

static int cpu(void) { return gf_runtime_get()->cpu; }

static _Thread_local gf_stream tl_stream;

static cudaStream_t raw(gf_stream s) { return s ? s->s : (cudaStream_t)0; }

void *gf_current_cuda_stream(void) { return (void *)raw(tl_stream); }

/* On the CPU fallback: GPUFUSE_DEVICE's error if there is one (and the
 * one-time notice). */
static gf_status usable(void) { return cpu() ? gf_cpu_fallback() : GF_SUCCESS; }

gf_status gf_stream_create(gf_stream *s)
{
    if (!s)
        return gf_fail(GF_ERROR_INVALID_VALUE, "gf_stream_create: null pointer");
    gf_status st = usable();
    if (st != GF_SUCCESS)
        return st;
    struct gf_stream_s *n = malloc(sizeof *n);
    if (!n)
        return gf_fail(GF_ERROR_OUT_OF_MEMORY, "gf_stream_create: out of host memory");
    if (cpu()) {
        *n = (struct gf_stream_s){0, -1};
        *s = n;
        return GF_SUCCESS;
    }
    n->device = gf_current_device();
    /* a blocking stream: ordered with the legacy default stream, which the
     * pool and launchers use when no stream is set */
    st = GF_CUDA(cudaStreamCreate(&n->s));
    if (st != GF_SUCCESS) {
        free(n);
        return st;
    }
    *s = n;
    return GF_SUCCESS;
}

gf_status gf_stream_destroy(gf_stream s)
{
    if (!s)
        return gf_fail(GF_ERROR_INVALID_VALUE, "gf_stream_destroy: the default stream cannot be destroyed");
    if (cpu()) {
        if (tl_stream == s)
            tl_stream = NULL;
        free(s);
        return GF_SUCCESS;
    }
    gf_status st = GF_CUDA(cudaStreamSynchronize(s->s));
    /* blocks it owned go to the default stream, and the library handles and
     * plans bound to it are destroyed, so that nothing outlives the stream
     * and a later stream that reuses the handle value inherits nothing */
    gf_pool *p = gf_device_pool_if_any(s->device);
    if (p)
        gf_pool_retire_stream(p, (void *)s->s, NULL);
    gf_blas_retire_stream((void *)s->s);
    gf_fft_retire_stream((void *)s->s);
    gf_status st2 = GF_CUDA(cudaStreamDestroy(s->s));
    if (tl_stream == s)
        tl_stream = NULL;
    free(s);
    return st != GF_SUCCESS ? st : st2;
}

gf_status gf_stream_set(gf_stream s)
{
    tl_stream = s;
    return GF_SUCCESS;
}

gf_stream gf_stream_get(void) { return tl_stream; }

gf_status gf_stream_sync(gf_stream s)
{
    if (cpu())
        return usable(); /* nothing runs asynchronously on the CPU */
    return GF_CUDA(cudaStreamSynchronize(raw(s)));
}

gf_status gf_event_create(gf_event *e)
{
    if (!e)
        return gf_fail(GF_ERROR_INVALID_VALUE, "gf_event_create: null pointer");
    gf_status st = usable();
    if (st != GF_SUCCESS)
        return st;
    struct gf_event_s *n = malloc(sizeof *n);
    if (!n)
        return gf_fail(GF_ERROR_OUT_OF_MEMORY, "gf_event_create: out of host memory");
    *n = (struct gf_event_s){NULL, -1};
    if (cpu()) {
        *e = n;
        return GF_SUCCESS;
    }
    st = GF_CUDA(cudaEventCreate(&n->e));
    if (st != GF_SUCCESS) {
        free(n);
        return st;
    }
    *e = n;
    return GF_SUCCESS;
}

gf_status gf_event_destroy(gf_event e)
{
    if (!e)
        return gf_fail(GF_ERROR_INVALID_VALUE, "gf_event_destroy: null event");
    gf_status st = e->e ? GF_CUDA(cudaEventDestroy(e->e)) : GF_SUCCESS;
    free(e);
    return st;
}

gf_status gf_event_record(gf_event e, gf_stream s)
{
    if (!e)
        return gf_fail(GF_ERROR_INVALID_VALUE, "gf_event_record: null event");
    if (!e->e) { /* CPU fallback: the work before it is done already */
        e->ms = gf_now_ms();
        return GF_SUCCESS;
    }
    return GF_CUDA(cudaEventRecord(e->e, raw(s)));
}

gf_status gf_stream_wait(gf_stream s, gf_event e)
{
    if (!e)
        return gf_fail(GF_ERROR_INVALID_VALUE, "gf_stream_wait: null event");
    if (!e->e)
        return GF_SUCCESS;
    return GF_CUDA(cudaStreamWaitEvent(raw(s), e->e, 0));
}

gf_status gf_event_elapsed_ms(gf_event start, gf_event end, float *ms)
{
    if (!start || !end || !ms)
        return gf_fail(GF_ERROR_INVALID_VALUE, "gf_event_elapsed_ms: null argument");
    if (!start->e || !end->e) {
        if (start->ms < 0 || end->ms < 0)
            return gf_fail(GF_ERROR_INVALID_VALUE, "gf_event_elapsed_ms: an event was never recorded");
        *ms = (float)(end->ms - start->ms);
        return GF_SUCCESS;
    }
    gf_status st = GF_CUDA(cudaEventSynchronize(end->e));
    if (st != GF_SUCCESS)
        return st;
    return GF_CUDA(cudaEventElapsedTime(ms, start->e, end->e));
}

gf_status gf_sync(void)
{
    if (cpu())
        return usable(); /* nothing runs asynchronously on the CPU path */
    gf_data_flush();
    return GF_CUDA(cudaDeviceSynchronize());
}
