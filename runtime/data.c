/* data.c - data regions (gf_data_enter/exit, gf_update_*, gf_device_ptr):
 * region.c's table under a lock, with device memory from the pool and
 * copies through transfer.c.  In CPU mode regions are still counted and
 * checked for overlap, but the "mirror" is the host memory itself. */
#include "rt.h"

#include <pthread.h>
#include <stdlib.h>

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static gf_region_table table;

static gf_status cuda_alloc(void *ctx, void **dev, size_t bytes)
{
    (void)ctx;
    return gf_malloc(dev, bytes);
}

static void cuda_free(void *ctx, void *dev)
{
    (void)ctx;
    gf_free(dev);
}

static gf_status cuda_to_device(void *ctx, void *dev, const void *host, size_t bytes)
{
    (void)ctx;
    return gf_memcpy(dev, host, bytes, GF_HOST_TO_DEVICE);
}

static gf_status cuda_to_host(void *ctx, void *host, const void *dev, size_t bytes)
{
    (void)ctx;
    return gf_memcpy(host, dev, bytes, GF_DEVICE_TO_HOST);
}

static gf_status cpu_alloc(void *ctx, void **dev, size_t bytes)
{
    (void)ctx;
    (void)bytes;
    *dev = NULL; /* no mirror: gf_device_ptr answers with the host address */
    return GF_SUCCESS;
}

static void cpu_free(void *ctx, void *dev)
{
    (void)ctx;
    (void)dev;
}

static gf_status cpu_copy(void *ctx, void *a, const void *b, size_t n)
{
    (void)ctx;
    (void)a;
    (void)b;
    (void)n;
    return GF_SUCCESS;
}

static const gf_region_ops cuda_ops = {NULL, cuda_alloc, cuda_free, cuda_to_device, cuda_to_host};
static const gf_region_ops cpu_ops = {NULL, cpu_alloc, cpu_free, cpu_copy, cpu_copy};

static const gf_region_ops *ops(void) { return gf_runtime_get()->cpu ? &cpu_ops : &cuda_ops; }

/* Host ranges of entered regions that a sequential fallback body wrote on
 * the host: pushed to their mirrors at the next region operation (or
 * launcher lookup), since the body runs after gf_call_end returned. */
typedef struct push {
    char *p;
    size_t n;
} push;
static push *pushes;
static int npush, cappush;

/* Called with mu held. */
static void flush_pushes(void)
{
    for (int i = 0; i < npush; i++) {
        gf_region *r = gf_regions_find(&table, pushes[i].p, pushes[i].n, NULL);
        if (r)
            gf_memcpy(r->dev + (pushes[i].p - r->host), pushes[i].p, pushes[i].n, GF_HOST_TO_DEVICE);
    }
    npush = 0;
}

gf_status gf_data_defer_push(const void *p, size_t bytes)
{
    pthread_mutex_lock(&mu);
    if (npush == cappush) {
        int cap = cappush ? cappush * 2 : 8;
        push *v = realloc(pushes, (size_t)cap * sizeof *v);
        if (!v) {
            pthread_mutex_unlock(&mu);
            return gf_fail(GF_ERROR_OUT_OF_MEMORY, "gf_data_defer_push: out of host memory");
        }
        pushes = v;
        cappush = cap;
    }
    pushes[npush++] = (push){(char *)p, bytes};
    pthread_mutex_unlock(&mu);
    return GF_SUCCESS;
}

void gf_data_flush(void)
{
    pthread_mutex_lock(&mu);
    if (npush)
        flush_pushes();
    pthread_mutex_unlock(&mu);
}

gf_status gf_data_enter(void *ptr, size_t bytes, int flags)
{
    const gf_region_ops *o = ops();
    pthread_mutex_lock(&mu);
    if (npush)
        flush_pushes();
    gf_status s = gf_regions_enter(&table, o, ptr, bytes, flags);
    pthread_mutex_unlock(&mu);
    return s;
}

gf_status gf_data_exit(void *ptr)
{
    const gf_region_ops *o = ops();
    pthread_mutex_lock(&mu);
    if (npush)
        flush_pushes();
    gf_status s = gf_regions_exit(&table, o, ptr);
    pthread_mutex_unlock(&mu);
    return s;
}

gf_status gf_update_device(void *ptr, size_t bytes)
{
    const gf_region_ops *o = ops();
    pthread_mutex_lock(&mu);
    if (npush)
        flush_pushes();
    gf_status s = gf_regions_update(&table, o, ptr, bytes, 1);
    pthread_mutex_unlock(&mu);
    return s;
}

gf_status gf_update_host(void *ptr, size_t bytes)
{
    const gf_region_ops *o = ops();
    pthread_mutex_lock(&mu);
    if (npush)
        flush_pushes();
    gf_status s = gf_regions_update(&table, o, ptr, bytes, 0);
    pthread_mutex_unlock(&mu);
    return s;
}

void *gf_device_ptr(const void *host_ptr)
{
    if (!host_ptr)
        return NULL;
    int cpu = gf_runtime_get()->cpu;
    pthread_mutex_lock(&mu);
    if (npush)
        flush_pushes();
    gf_region *r = gf_regions_find(&table, host_ptr, 0, NULL);
    void *d = !r ? NULL : cpu ? (void *)host_ptr : r->dev + ((const char *)host_ptr - r->host);
    pthread_mutex_unlock(&mu);
    return d;
}

void *gf_data_lookup(const void *p, size_t bytes, int *partial)
{
    *partial = 0;
    pthread_mutex_lock(&mu);
    if (npush)
        flush_pushes();
    if (!table.n) {
        pthread_mutex_unlock(&mu);
        return NULL;
    }
    gf_region *r = gf_regions_find(&table, p, bytes, partial);
    void *d = r ? r->dev + ((const char *)p - r->host) : NULL;
    pthread_mutex_unlock(&mu);
    return d;
}
