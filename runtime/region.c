/* region.c - bookkeeping of data regions (gf_data_enter/exit): a sorted
 * table of non-overlapping host ranges with device mirrors and reference
 * counts.  Memory and copies go through gf_region_ops, so this is testable
 * without a GPU; data.c supplies the CUDA ops and the lock. */
#include "rt.h"

#include <stdlib.h>
#include <string.h>

/* Index of the last region with host <= p, or -1. */
static int search(const gf_region_table *t, const char *p)
{
    int lo = 0, hi = t->n - 1, ans = -1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if ((uintptr_t)t->v[mid].host <= (uintptr_t)p) {
            ans = mid;
            lo = mid + 1;
        } else {
            hi = mid - 1;
        }
    }
    return ans;
}

gf_region *gf_regions_find(const gf_region_table *t, const void *p, size_t bytes, int *partial)
{
    const char *lo = p, *hi = (const char *)p + bytes;
    int i = search(t, lo);
    if (partial)
        *partial = 0;
    if (i >= 0) {
        gf_region *r = &t->v[i];
        const char *end = r->host + r->bytes;
        if ((uintptr_t)lo < (uintptr_t)end) {
            if ((uintptr_t)hi <= (uintptr_t)end)
                return r;
            if (partial)
                *partial = 1;
            return NULL;
        }
    }
    /* a region starting inside (lo, hi) overlaps without containing */
    if (partial && i + 1 < t->n && (uintptr_t)t->v[i + 1].host < (uintptr_t)hi)
        *partial = 1;
    return NULL;
}

gf_status gf_regions_enter(gf_region_table *t, const gf_region_ops *ops, void *p,
                           size_t bytes, int flags)
{
    if (!p || !bytes || (flags & ~(GF_COPYIN | GF_COPYOUT | GF_CREATE)))
        return gf_fail(GF_ERROR_INVALID_VALUE, "gf_data_enter(%p, %zu, %d): %s", p, bytes, flags,
                       !p ? "null pointer" : !bytes ? "zero size" : "unknown flag");
    int partial;
    gf_region *r = gf_regions_find(t, p, bytes, &partial);
    if (r) {
        /* a sub-range of an entered region: present, counted */
        r->refs++;
        r->flags |= flags;
        return GF_SUCCESS;
    }
    if (partial)
        return gf_fail(GF_ERROR_OVERLAP,
                       "gf_data_enter(%p, %zu): range partly overlaps an entered region", p, bytes);
    if (t->n == t->cap) {
        int cap = t->cap ? t->cap * 2 : 16;
        gf_region *v = realloc(t->v, (size_t)cap * sizeof *v);
        if (!v)
            return gf_fail(GF_ERROR_OUT_OF_MEMORY, "gf_data_enter: out of host memory");
        t->v = v;
        t->cap = cap;
    }
    void *dev = NULL;
    gf_status rc = ops->alloc(ops->ctx, &dev, bytes);
    if (rc != GF_SUCCESS)
        return rc;
    if (flags & GF_COPYIN) {
        rc = ops->to_device(ops->ctx, dev, p, bytes);
        if (rc != GF_SUCCESS) {
            ops->free(ops->ctx, dev);
            return rc;
        }
    }
    int at = search(t, p) + 1;
    memmove(&t->v[at + 1], &t->v[at], (size_t)(t->n - at) * sizeof *t->v);
    t->v[at] = (gf_region){p, bytes, dev, 1, flags};
    t->n++;
    return GF_SUCCESS;
}

gf_status gf_regions_exit(gf_region_table *t, const gf_region_ops *ops, void *p)
{
    gf_region *r = gf_regions_find(t, p, 0, NULL);
    if (!p || !r)
        return gf_fail(GF_ERROR_NOT_MAPPED, "gf_data_exit(%p): not inside an entered region", p);
    if (--r->refs > 0)
        return GF_SUCCESS;
    gf_status rc = GF_SUCCESS;
    if (r->flags & GF_COPYOUT)
        rc = ops->to_host(ops->ctx, r->host, r->dev, r->bytes);
    ops->free(ops->ctx, r->dev);
    int at = (int)(r - t->v);
    memmove(&t->v[at], &t->v[at + 1], (size_t)(t->n - at - 1) * sizeof *t->v);
    t->n--;
    return rc;
}

gf_status gf_regions_update(gf_region_table *t, const gf_region_ops *ops, void *p,
                            size_t bytes, int to_device)
{
    if (!p || !bytes)
        return gf_fail(GF_ERROR_INVALID_VALUE, "gf_update_%s(%p, %zu): %s",
                       to_device ? "device" : "host", p, bytes, !p ? "null pointer" : "zero size");
    gf_region *r = gf_regions_find(t, p, bytes, NULL);
    if (!r)
        return gf_fail(GF_ERROR_NOT_MAPPED, "gf_update_%s(%p, %zu): not inside an entered region",
                       to_device ? "device" : "host", p, bytes);
    char *dev = r->dev + ((char *)p - r->host);
    return to_device ? ops->to_device(ops->ctx, dev, p, bytes)
                     : ops->to_host(ops->ctx, p, dev, bytes);
}

void gf_regions_clear(gf_region_table *t, const gf_region_ops *ops)
{
    for (int i = 0; i < t->n; i++)
        ops->free(ops->ctx, t->v[i].dev);
    free(t->v);
    t->v = NULL;
    t->n = t->cap = 0;
}
