/* stream.c - gf_stream/gf_event over cudaStream_t/cudaEvent_t, the
 * per-thread current stream, and gf_sync. */
#include "rt.h"

#include <cuda_runtime_api.h>
#include <stdlib.h>

struct gf_stream_s {
    cudaStream_t s;
    int device;
};

struct gf_event_s {
    cudaEvent_t e;
};

static _Thread_local gf_stream tl_stream;

static cudaStream_t raw(gf_stream s) { return s ? s->s : (cudaStream_t)0; }

void *gf_current_cuda_stream(void) { return (void *)raw(tl_stream); }

static gf_status need_gpu(const char *what)
{
    if (gf_runtime_get()->cpu)
        return gf_fail(GF_ERROR_NO_DEVICE, "%s: no GPU (CPU fallback)", what);
    return GF_SUCCESS;
}

gf_status gf_stream_create(gf_stream *s)
{
    if (!s)
        return gf_fail(GF_ERROR_INVALID_VALUE, "gf_stream_create: null pointer");
    gf_status st = need_gpu("gf_stream_create");
    if (st != GF_SUCCESS)
        return st;
    struct gf_stream_s *n = malloc(sizeof *n);
    if (!n)
        return gf_fail(GF_ERROR_OUT_OF_MEMORY, "gf_stream_create: out of host memory");
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
    gf_status st = GF_CUDA(cudaStreamSynchronize(s->s));
    /* blocks it owned go to the default stream, so a later stream that
     * reuses the handle value does not inherit them */
    gf_pool *p = gf_device_pool_if_any(s->device);
    if (p)
        gf_pool_retire_stream(p, (void *)s->s, NULL);
    gf_status st2 = GF_CUDA(cudaStreamDestroy(s->s));
    if (tl_stream == s)
        tl_stream = NULL;
    free(s);
    return st != GF_SUCCESS ? st : st2;
}

gf_status gf_stream_set(gf_stream s)
{
    if (s && gf_runtime_get()->cpu)
        return gf_fail(GF_ERROR_NO_DEVICE, "gf_stream_set: no GPU (CPU fallback)");
    tl_stream = s;
    return GF_SUCCESS;
}

gf_stream gf_stream_get(void) { return tl_stream; }

gf_status gf_stream_sync(gf_stream s)
{
    if (gf_runtime_get()->cpu)
        return s ? gf_fail(GF_ERROR_NO_DEVICE, "gf_stream_sync: no GPU") : GF_SUCCESS;
    return GF_CUDA(cudaStreamSynchronize(raw(s)));
}

gf_status gf_event_create(gf_event *e)
{
    if (!e)
        return gf_fail(GF_ERROR_INVALID_VALUE, "gf_event_create: null pointer");
    gf_status st = need_gpu("gf_event_create");
    if (st != GF_SUCCESS)
        return st;
    struct gf_event_s *n = malloc(sizeof *n);
    if (!n)
        return gf_fail(GF_ERROR_OUT_OF_MEMORY, "gf_event_create: out of host memory");
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
    gf_status st = GF_CUDA(cudaEventDestroy(e->e));
    free(e);
    return st;
}

gf_status gf_event_record(gf_event e, gf_stream s)
{
    if (!e)
        return gf_fail(GF_ERROR_INVALID_VALUE, "gf_event_record: null event");
    return GF_CUDA(cudaEventRecord(e->e, raw(s)));
}

gf_status gf_stream_wait(gf_stream s, gf_event e)
{
    if (!e)
        return gf_fail(GF_ERROR_INVALID_VALUE, "gf_stream_wait: null event");
    return GF_CUDA(cudaStreamWaitEvent(raw(s), e->e, 0));
}

gf_status gf_event_elapsed_ms(gf_event start, gf_event end, float *ms)
{
    if (!start || !end || !ms)
        return gf_fail(GF_ERROR_INVALID_VALUE, "gf_event_elapsed_ms: null argument");
    gf_status st = GF_CUDA(cudaEventSynchronize(end->e));
    if (st != GF_SUCCESS)
        return st;
    return GF_CUDA(cudaEventElapsedTime(ms, start->e, end->e));
}

gf_status gf_sync(void)
{
    if (gf_runtime_get()->cpu)
        return GF_SUCCESS; /* nothing runs asynchronously on the CPU path */
    gf_data_flush();
    return GF_CUDA(cudaDeviceSynchronize());
}
