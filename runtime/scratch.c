/* scratch.c - the device scratch of one launcher call (reduction partials,
 * tickets and results, temporaries), declared piece by piece before the call
 * is mapped and obtained all at once, so that running out of device memory is
 * found before any kernel runs.  Pure logic over gf_pool, no CUDA. */
#include "rt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void use_inline(gf_scratch *s)
{
    s->size = s->size_in;
    s->ptr = s->ptr_in;
    s->cap = GF_SCRATCH_INLINE;
}

void gf_scratch_reset(gf_scratch *s)
{
    if (!s->size)
        use_inline(s);
    s->n = 0;
    s->lost = 0;
    s->block = NULL;
}

void gf_scratch_fini(gf_scratch *s)
{
    if (s->size && s->size != s->size_in) {
        free(s->size);
        free(s->ptr);
    }
    s->size = NULL;
    s->ptr = NULL;
    s->n = s->cap = 0;
}

gf_status gf_scratch_add(gf_scratch *s, size_t bytes)
{
    if (!s->size)
        use_inline(s);
    if (s->n == s->cap) {
        int cap = s->cap * 2;
        size_t *sz = malloc((size_t)cap * sizeof *sz);
        void **pt = malloc((size_t)cap * sizeof *pt);
        if (!sz || !pt) {
            free(sz);
            free(pt);
            s->lost = 1; /* gf_scratch_alloc then fails: nothing runs with a missing piece */
            return gf_fail(GF_ERROR_OUT_OF_MEMORY, "out of host memory for the call's scratch list");
        }
        memcpy(sz, s->size, (size_t)s->n * sizeof *sz);
        if (s->size != s->size_in) {
            free(s->size);
            free(s->ptr);
        }
        s->size = sz;
        s->ptr = pt;
        s->cap = cap;
    }
    s->size[s->n] = bytes;
    s->ptr[s->n] = NULL;
    s->n++;
    return GF_SUCCESS;
}

/* A piece's share of the carved block: at least one byte, so that every
 * piece has its own address, rounded to the alignment. */
static int piece_bytes(size_t bytes, size_t *out)
{
    if (bytes > SIZE_MAX / 2)
        return -1;
    *out = ((bytes ? bytes : 1) + GF_SCRATCH_ALIGN - 1) / GF_SCRATCH_ALIGN * GF_SCRATCH_ALIGN;
    return 0;
}

gf_status gf_scratch_total(const gf_scratch *s, size_t *total)
{
    size_t t = 0;
    for (int k = 0; k < s->n; k++) {
        size_t b;
        if (piece_bytes(s->size[k], &b) != 0 || b > SIZE_MAX / 2 - t)
            return gf_fail(GF_ERROR_OUT_OF_MEMORY, "scratch piece %d of %zu bytes: request too large", k,
                           s->size[k]);
        t += b;
    }
    *total = t;
    return GF_SUCCESS;
}

/* Records "N bytes of scratch (K pieces): <the pool's message>" as the error. */
static gf_status fail_with_total(const gf_scratch *s, gf_status st, size_t total)
{
    char why[512];
    snprintf(why, sizeof why, "%s", gf_last_error()); /* gf_fail overwrites it */
    return gf_fail(st, "%zu bytes of scratch (%d pieces): %s", total, s->n, why);
}

gf_status gf_scratch_alloc(gf_scratch *s, gf_pool *p, void *stream)
{
    s->block = NULL;
    for (int k = 0; k < s->n; k++)
        s->ptr[k] = NULL;
    if (s->lost)
        return gf_fail(GF_ERROR_OUT_OF_MEMORY, "out of host memory for the call's scratch list");
    if (!s->n)
        return GF_SUCCESS;
    size_t total = 0;
    gf_status st = gf_scratch_total(s, &total);
    if (st != GF_SUCCESS)
        return st;
    if (gf_pool_bypassed(p)) {
        /* one exactly sized block each: compute-sanitizer sees every piece's bounds */
        for (int k = 0; k < s->n; k++) {
            st = gf_pool_alloc(p, &s->ptr[k], s->size[k] ? s->size[k] : 1, stream);
            if (st != GF_SUCCESS) {
                s->ptr[k] = NULL;
                gf_scratch_release(s, p);
                return fail_with_total(s, st, total);
            }
        }
        return GF_SUCCESS;
    }
    st = gf_pool_alloc(p, &s->block, total, stream);
    if (st != GF_SUCCESS) {
        s->block = NULL;
        return fail_with_total(s, st, total);
    }
    size_t off = 0;
    for (int k = 0; k < s->n; k++) {
        size_t b = 0;
        piece_bytes(s->size[k], &b); /* cannot fail: gf_scratch_total checked */
        s->ptr[k] = (char *)s->block + off;
        off += b;
    }
    return GF_SUCCESS;
}

void gf_scratch_release(gf_scratch *s, gf_pool *p)
{
    if (s->block) {
        gf_pool_free(p, s->block);
    } else {
        for (int k = 0; k < s->n; k++)
            if (s->ptr[k])
                gf_pool_free(p, s->ptr[k]);
    }
    s->block = NULL;
    for (int k = 0; k < s->n; k++)
        s->ptr[k] = NULL;
}

void *gf_scratch_ptr(const gf_scratch *s, int k)
{
    return k >= 0 && k < s->n ? s->ptr[k] : NULL;
}
