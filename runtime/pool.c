/* pool.c - the caching allocator behind gf_malloc and gf_host_malloc, free of
 * CUDA: memory, events and synchronisation come from a gf_pool_backend.
 *
 * Design (after PyTorch's CUDACachingAllocator and CuPy's memory pool):
 *  - sizes round up to 512 bytes; requests up to 1 MiB come from the small
 *    pool, carved out of 2 MiB segments; larger ones from the large pool,
 *    whose segments are 20 MiB for requests under 10 MiB (so that several
 *    medium blocks share one backend allocation) and the request rounded to
 *    2 MiB above that;
 *  - free blocks sit in one treap per pool ordered by (stream, size, address):
 *    best fit is a lower-bound search, O(log n), with no malloc and no backend
 *    call on a cache hit; a block larger than needed is split (small pool:
 *    remainder >= 512 B; large pool: remainder > 1 MiB), and a freed block
 *    merges with free neighbours of its segment, so a segment that is wholly
 *    free again is one block that trim can return;
 *  - every segment, and so every block, belongs to the stream it was
 *    allocated on: work on one stream is ordered, so a block freed there can
 *    be handed out again at once.  A block also used on other streams
 *    (gf_pool_record_stream) gets an event recorded on each of them when it
 *    is freed and becomes reusable only when all have completed;
 *  - when the backend is out of memory (or the limit would be exceeded), the
 *    pool waits for pending frees, returns all wholly free segments and tries
 *    once more;
 *  - live blocks are found by address in a hash table; segments are kept in
 *    an address-sorted array, so "is this pointer ours" is a binary search.
 * One mutex guards a pool: uncontended it costs tens of nanoseconds. */
#include "rt.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef struct segment segment;

typedef struct block {
    char *ptr;
    size_t size;
    void *stream;            /* owner */
    segment *seg;
    struct block *prev, *next;   /* address neighbours within the segment */
    struct block *left, *right;  /* treap links while free */
    struct block *hnext;         /* hash chain while allocated; spare list */
    uint32_t prio;
    unsigned allocated : 1, in_tree : 1;
    int pending;                 /* events still to complete before reuse */
    int nused;                   /* other streams the block was used on */
    void *used[4];
    void **used_more;            /* beyond 4 (rare) */
    int used_cap;
} block;

struct segment {
    char *base;
    size_t size;
    int small;
    block *first;
};

typedef struct pending_ev {
    void *ev;
    block *b;
} pending_ev;

struct gf_pool {
    pthread_mutex_t mu;
    gf_pool_backend be;
    gf_pool_config cfg;
    block *tree[2];          /* [0] large, [1] small */
    block **hash;
    size_t hmask, hcount;
    segment **segs;          /* sorted by base */
    size_t nseg, capseg;
    block *spare;
    pending_ev *pend;
    size_t npend, cappend;
    uint32_t rng;
    gf_pool_stats st;
};

/* ---- helpers -------------------------------------------------------------- */

static size_t round_up(size_t n, size_t to) { return (n + to - 1) / to * to; }

static uint32_t next_prio(gf_pool *p)
{
    uint32_t x = p->rng; /* xorshift32 */
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return p->rng = x;
}

static block *new_block(gf_pool *p)
{
    block *b = p->spare;
    if (b)
        p->spare = b->hnext;
    else if (!(b = malloc(sizeof *b)))
        return NULL;
    memset(b, 0, sizeof *b);
    b->prio = next_prio(p);
    return b;
}

static void drop_block(gf_pool *p, block *b)
{
    free(b->used_more);
    b->used_more = NULL;
    b->hnext = p->spare;
    p->spare = b;
}

/* ---- treap of free blocks, key (stream, size, ptr) ----------------------- */

static int key_less(const block *a, void *stream, size_t size, const char *ptr)
{
    if ((uintptr_t)a->stream != (uintptr_t)stream)
        return (uintptr_t)a->stream < (uintptr_t)stream;
    if (a->size != size)
        return a->size < size;
    return (uintptr_t)a->ptr < (uintptr_t)ptr;
}

static block *rot_right(block *t)
{
    block *l = t->left;
    t->left = l->right;
    l->right = t;
    return l;
}

static block *rot_left(block *t)
{
    block *r = t->right;
    t->right = r->left;
    r->left = t;
    return r;
}

static block *treap_insert(block *t, block *b)
{
    if (!t)
        return b;
    if (key_less(b, t->stream, t->size, t->ptr)) {
        t->left = treap_insert(t->left, b);
        if (t->left->prio > t->prio)
            t = rot_right(t);
    } else {
        t->right = treap_insert(t->right, b);
        if (t->right->prio > t->prio)
            t = rot_left(t);
    }
    return t;
}

static block *treap_join(block *a, block *b)
{
    if (!a)
        return b;
    if (!b)
        return a;
    if (a->prio > b->prio) {
        a->right = treap_join(a->right, b);
        return a;
    }
    b->left = treap_join(a, b->left);
    return b;
}

static block *treap_remove(block *t, block *b)
{
    if (!t)
        return NULL;
    if (t == b)
        return treap_join(t->left, t->right);
    if (key_less(b, t->stream, t->size, t->ptr))
        t->left = treap_remove(t->left, b);
    else
        t->right = treap_remove(t->right, b);
    return t;
}

/* Smallest free block of `stream` with size >= size. */
static block *treap_lower_bound(block *t, void *stream, size_t size)
{
    block *best = NULL;
    while (t) {
        if (key_less(t, stream, size, NULL)) {
            t = t->right;
        } else {
            best = t;
            t = t->left;
        }
    }
    return best && best->stream == stream ? best : NULL;
}

static void tree_add(gf_pool *p, block *b)
{
    b->left = b->right = NULL;
    b->in_tree = 1;
    p->tree[b->seg->small] = treap_insert(p->tree[b->seg->small], b);
}

static void tree_del(gf_pool *p, block *b)
{
    p->tree[b->seg->small] = treap_remove(p->tree[b->seg->small], b);
    b->in_tree = 0;
    b->left = b->right = NULL;
}

/* ---- hash of allocated blocks ------------------------------------------- */

static size_t hslot(const gf_pool *p, const void *ptr)
{
    uintptr_t x = (uintptr_t)ptr >> 9;
    x *= (uintptr_t)0x9E3779B97F4A7C15ull;
    return (size_t)(x >> 16) & p->hmask;
}

static int hash_grow(gf_pool *p)
{
    size_t n = (p->hmask + 1) * 2;
    block **h = calloc(n, sizeof *h);
    if (!h)
        return -1;
    size_t old = p->hmask + 1;
    block **oh = p->hash;
    p->hash = h;
    p->hmask = n - 1;
    for (size_t i = 0; i < old; i++) {
        for (block *b = oh[i], *nx; b; b = nx) {
            nx = b->hnext;
            size_t s = hslot(p, b->ptr);
            b->hnext = h[s];
            h[s] = b;
        }
    }
    free(oh);
    return 0;
}

static void hash_put(gf_pool *p, block *b)
{
    if (p->hcount + 1 > (p->hmask + 1) * 2)
        hash_grow(p); /* on failure chains just get longer */
    size_t s = hslot(p, b->ptr);
    b->hnext = p->hash[s];
    p->hash[s] = b;
    p->hcount++;
}

static block *hash_find(const gf_pool *p, const void *ptr)
{
    for (block *b = p->hash[hslot(p, ptr)]; b; b = b->hnext)
        if (b->ptr == ptr)
            return b;
    return NULL;
}

static block *hash_take(gf_pool *p, const void *ptr)
{
    for (block **pp = &p->hash[hslot(p, ptr)]; *pp; pp = &(*pp)->hnext) {
        block *b = *pp;
        if (b->ptr == ptr) {
            *pp = b->hnext;
            b->hnext = NULL;
            p->hcount--;
            return b;
        }
    }
    return NULL;
}

/* ---- segments -------------------------------------------------------------- */

/* Index of the last segment with base <= addr, or -1. */
static long seg_search(const gf_pool *p, const char *addr)
{
    long lo = 0, hi = (long)p->nseg - 1, ans = -1;
    while (lo <= hi) {
        long mid = (lo + hi) / 2;
        if ((uintptr_t)p->segs[mid]->base <= (uintptr_t)addr) {
            ans = mid;
            lo = mid + 1;
        } else {
            hi = mid - 1;
        }
    }
    return ans;
}

static int seg_insert(gf_pool *p, segment *s)
{
    if (p->nseg == p->capseg) {
        size_t cap = p->capseg ? p->capseg * 2 : 16;
        segment **v = realloc(p->segs, cap * sizeof *v);
        if (!v)
            return -1;
        p->segs = v;
        p->capseg = cap;
    }
    long at = seg_search(p, s->base) + 1;
    memmove(&p->segs[at + 1], &p->segs[at], (p->nseg - (size_t)at) * sizeof *p->segs);
    p->segs[at] = s;
    p->nseg++;
    return 0;
}

static void seg_release(gf_pool *p, segment *s)
{
    long at = seg_search(p, s->base);
    memmove(&p->segs[at], &p->segs[at + 1], (p->nseg - (size_t)at - 1) * sizeof *p->segs);
    p->nseg--;
    p->be.free(p->be.ctx, s->base, s->size);
    p->st.reserved_bytes -= s->size;
    p->st.backend_frees++;
    drop_block(p, s->first);
    free(s);
}

/* Asks the backend for a segment of `size` bytes owned by `stream`. */
static gf_status seg_new(gf_pool *p, size_t size, int small, void *stream, block **out)
{
    if (p->cfg.limit && p->st.reserved_bytes + size > p->cfg.limit)
        return GF_ERROR_LIMIT;
    segment *s = malloc(sizeof *s);
    block *b = new_block(p);
    if (!s || !b) {
        free(s);
        if (b)
            drop_block(p, b);
        return GF_ERROR_OUT_OF_MEMORY;
    }
    void *mem = NULL;
    gf_status rc = p->be.alloc(p->be.ctx, &mem, size);
    if (rc != GF_SUCCESS) {
        free(s);
        drop_block(p, b);
        return rc;
    }
    s->base = mem;
    s->size = size;
    s->small = small;
    s->first = b;
    b->ptr = mem;
    b->size = size;
    b->stream = stream;
    b->seg = s;
    if (seg_insert(p, s) != 0) {
        p->be.free(p->be.ctx, mem, size);
        free(s);
        drop_block(p, b);
        return GF_ERROR_OUT_OF_MEMORY;
    }
    p->st.reserved_bytes += size;
    p->st.backend_allocs++;
    *out = b;
    return GF_SUCCESS;
}

/* ---- cross-stream events --------------------------------------------------- */

static void insert_free(gf_pool *p, block *b);

static void process_events(gf_pool *p)
{
    size_t j = 0;
    for (size_t i = 0; i < p->npend; i++) {
        pending_ev *e = &p->pend[i];
        if (p->be.event_query(p->be.ctx, e->ev)) {
            p->be.event_destroy(p->be.ctx, e->ev);
            if (--e->b->pending == 0)
                insert_free(p, e->b);
        } else {
            p->pend[j++] = *e;
        }
    }
    p->npend = j;
}

/* Waits for everything, then every pending block is free. */
static void drain_events(gf_pool *p)
{
    if (!p->npend)
        return;
    if (p->be.synchronize)
        p->be.synchronize(p->be.ctx);
    process_events(p);
    while (p->npend) /* a backend without synchronize: poll */
        process_events(p);
}

/* ---- alloc and free --------------------------------------------------------- */

static void insert_free(gf_pool *p, block *b)
{
    block *pv = b->prev, *nx = b->next;
    if (pv && pv->in_tree) {
        tree_del(p, pv);
        pv->size += b->size;
        pv->next = nx;
        if (nx)
            nx->prev = pv;
        drop_block(p, b);
        b = pv;
    }
    if (nx && nx->in_tree) {
        tree_del(p, nx);
        b->size += nx->size;
        b->next = nx->next;
        if (nx->next)
            nx->next->prev = b;
        drop_block(p, nx);
    }
    tree_add(p, b);
}

/* Returns every wholly free segment to the backend. */
static size_t release_cached(gf_pool *p)
{
    drain_events(p);
    size_t freed = 0;
    for (size_t i = p->nseg; i-- > 0;) {
        segment *s = p->segs[i];
        block *b = s->first;
        if (b->in_tree && !b->next && b->size == s->size) {
            tree_del(p, b);
            freed += s->size;
            seg_release(p, s);
        }
    }
    return freed;
}

static size_t segment_size(const gf_pool *p, size_t size, int small)
{
    if (small)
        return p->cfg.small_segment;
    if (size < 10u << 20)
        return 20u << 20;
    return round_up(size, p->cfg.large_round);
}

static int should_split(const gf_pool *p, const block *b, size_t size)
{
    size_t rem = b->size - size;
    return b->seg->small ? rem >= p->cfg.round : rem > p->cfg.small_max;
}

static gf_status bypass_alloc(gf_pool *p, void **ptr, size_t bytes, void *stream)
{
    block *b;
    gf_status rc = seg_new(p, bytes, 0, stream, &b);
    if (rc != GF_SUCCESS)
        return rc == GF_ERROR_LIMIT
                   ? gf_fail(rc, "gf_malloc(%zu): GPUFUSE_POOL_LIMIT=%zu exceeded", bytes, p->cfg.limit)
                   : gf_fail(rc, "gf_malloc(%zu): out of memory (pool bypassed)", bytes);
    b->allocated = 1;
    hash_put(p, b);
    *ptr = b->ptr;
    return GF_SUCCESS;
}

gf_status gf_pool_alloc(gf_pool *p, void **ptr, size_t bytes, void *stream)
{
    if (!ptr || bytes == 0)
        return gf_fail(GF_ERROR_INVALID_VALUE, "gf_malloc: %s", ptr ? "zero size" : "null result pointer");
    if (bytes > SIZE_MAX / 2)
        return gf_fail(GF_ERROR_OUT_OF_MEMORY, "gf_malloc(%zu): request too large", bytes);
    pthread_mutex_lock(&p->mu);
    gf_status rc = GF_SUCCESS;
    block *b;
    if (p->cfg.bypass) {
        rc = bypass_alloc(p, ptr, bytes, stream);
        if (rc != GF_SUCCESS)
            goto out;
        b = hash_find(p, *ptr);
        goto count;
    }
    if (p->npend)
        process_events(p);
    size_t size = round_up(bytes, p->cfg.round);
    int small = size <= p->cfg.small_max;
    b = treap_lower_bound(p->tree[small], stream, size);
    if (b) {
        tree_del(p, b);
    } else {
        size_t ss = segment_size(p, size, small);
        rc = seg_new(p, ss, small, stream, &b);
        if (rc != GF_SUCCESS && !small && ss > size) {
            /* a smaller, exact segment may still fit */
            ss = round_up(size, p->cfg.large_round);
            rc = seg_new(p, ss, small, stream, &b);
        }
        if (rc == GF_ERROR_OUT_OF_MEMORY || rc == GF_ERROR_LIMIT) {
            p->st.oom_retries++;
            release_cached(p);
            rc = seg_new(p, ss, small, stream, &b);
        }
        if (rc != GF_SUCCESS) {
            if (rc == GF_ERROR_LIMIT)
                gf_fail(rc, "gf_malloc(%zu): GPUFUSE_POOL_LIMIT=%zu bytes would be exceeded "
                            "(%zu reserved)", bytes, p->cfg.limit, p->st.reserved_bytes);
            else if (rc == GF_ERROR_OUT_OF_MEMORY)
                gf_fail(rc, "gf_malloc(%zu): out of memory after freeing the cache "
                            "(%zu bytes in use)", bytes, p->st.current_bytes);
            goto out;
        }
    }
    if (should_split(p, b, size)) {
        block *r = new_block(p);
        if (r) {
            r->ptr = b->ptr + size;
            r->size = b->size - size;
            r->stream = b->stream;
            r->seg = b->seg;
            r->prev = b;
            r->next = b->next;
            if (b->next)
                b->next->prev = r;
            b->next = r;
            b->size = size;
            tree_add(p, r);
        }
    }
    b->allocated = 1;
    hash_put(p, b);
    *ptr = b->ptr;
count:
    p->st.allocs++;
    p->st.current_bytes += b->size;
    if (p->st.current_bytes > p->st.peak_bytes)
        p->st.peak_bytes = p->st.current_bytes;
out:
    pthread_mutex_unlock(&p->mu);
    return rc;
}

gf_status gf_pool_free(gf_pool *p, void *ptr)
{
    if (!ptr)
        return GF_SUCCESS;
    pthread_mutex_lock(&p->mu);
    block *b = hash_take(p, ptr);
    if (!b) {
        pthread_mutex_unlock(&p->mu);
        return gf_fail(GF_ERROR_INVALID_VALUE, "gf_free(%p): not a live block of this pool", ptr);
    }
    b->allocated = 0;
    p->st.frees++;
    p->st.current_bytes -= b->size;
    if (p->cfg.bypass) {
        seg_release(p, b->seg);
        pthread_mutex_unlock(&p->mu);
        return GF_SUCCESS;
    }
    gf_status rc = GF_SUCCESS;
    int n = b->nused;
    for (int i = 0; i < n; i++) {
        void *s = i < 4 ? b->used[i] : b->used_more[i - 4];
        void *ev = NULL;
        gf_status e = p->be.event_create(p->be.ctx, &ev);
        if (e == GF_SUCCESS)
            e = p->be.event_record(p->be.ctx, ev, s);
        if (e == GF_SUCCESS && p->npend == p->cappend) {
            size_t cap = p->cappend ? p->cappend * 2 : 16;
            pending_ev *v = realloc(p->pend, cap * sizeof *v);
            if (v) {
                p->pend = v;
                p->cappend = cap;
            } else {
                e = GF_ERROR_OUT_OF_MEMORY;
            }
        }
        if (e != GF_SUCCESS) {
            /* cannot order the reuse: wait for everything instead */
            if (ev)
                p->be.event_destroy(p->be.ctx, ev);
            if (p->be.synchronize)
                p->be.synchronize(p->be.ctx);
            rc = e;
            continue;
        }
        p->pend[p->npend++] = (pending_ev){ev, b};
        b->pending++;
    }
    b->nused = 0;
    free(b->used_more);
    b->used_more = NULL;
    b->used_cap = 0;
    if (!b->pending)
        insert_free(p, b);
    pthread_mutex_unlock(&p->mu);
    (void)rc; /* the free itself succeeded; a failed event only cost a sync */
    return GF_SUCCESS;
}

gf_status gf_pool_record_stream(gf_pool *p, void *ptr, void *stream)
{
    pthread_mutex_lock(&p->mu);
    block *b = hash_find(p, ptr);
    gf_status rc = GF_SUCCESS;
    if (!b) {
        rc = gf_fail(GF_ERROR_INVALID_VALUE, "record_stream(%p): not a live block", ptr);
    } else if (stream != b->stream && !p->cfg.bypass) {
        int seen = 0;
        for (int i = 0; i < b->nused; i++)
            if ((i < 4 ? b->used[i] : b->used_more[i - 4]) == stream)
                seen = 1;
        if (!seen) {
            if (b->nused < 4) {
                b->used[b->nused++] = stream;
            } else {
                int k = b->nused - 4;
                if (k == b->used_cap) {
                    int cap = b->used_cap ? b->used_cap * 2 : 4;
                    void **v = realloc(b->used_more, (size_t)cap * sizeof *v);
                    if (!v) {
                        pthread_mutex_unlock(&p->mu);
                        return gf_fail(GF_ERROR_OUT_OF_MEMORY, "record_stream: out of host memory");
                    }
                    b->used_more = v;
                    b->used_cap = cap;
                }
                b->used_more[k] = stream;
                b->nused++;
            }
        }
    }
    pthread_mutex_unlock(&p->mu);
    return rc;
}

/* ---- queries, trim, lifetime ----------------------------------------------- */

int gf_pool_contains(gf_pool *p, const void *addr)
{
    pthread_mutex_lock(&p->mu);
    long i = seg_search(p, addr);
    int in = i >= 0 && (uintptr_t)addr < (uintptr_t)p->segs[i]->base + p->segs[i]->size;
    pthread_mutex_unlock(&p->mu);
    return in;
}

int gf_pool_use(gf_pool *p, const void *addr, void *stream)
{
    pthread_mutex_lock(&p->mu);
    long i = seg_search(p, addr);
    int in = i >= 0 && (uintptr_t)addr < (uintptr_t)p->segs[i]->base + p->segs[i]->size;
    char *hit = NULL;
    /* all blocks of a segment share its stream: only a foreign stream needs
     * the (rare) walk to the block that holds addr */
    if (in && p->segs[i]->first->stream != stream && !p->cfg.bypass)
        for (block *b = p->segs[i]->first; b; b = b->next)
            if ((uintptr_t)addr < (uintptr_t)b->ptr + b->size) {
                hit = b->allocated ? b->ptr : NULL;
                break;
            }
    pthread_mutex_unlock(&p->mu);
    if (hit)
        gf_pool_record_stream(p, hit, stream);
    return in;
}

int gf_pool_bypassed(gf_pool *p) { return p->cfg.bypass; }

int gf_pool_block_at(gf_pool *p, const void *addr, const char **base, size_t *size)
{
    pthread_mutex_lock(&p->mu);
    long i = seg_search(p, addr);
    int in = i >= 0 && (uintptr_t)addr < (uintptr_t)p->segs[i]->base + p->segs[i]->size;
    int found = 0;
    for (block *b = in ? p->segs[i]->first : NULL; b; b = b->next)
        if ((uintptr_t)addr >= (uintptr_t)b->ptr && (uintptr_t)addr < (uintptr_t)b->ptr + b->size) {
            found = b->allocated;
            *base = b->ptr;
            *size = b->size;
            break;
        }
    pthread_mutex_unlock(&p->mu);
    return found;
}

size_t gf_pool_block_size(gf_pool *p, const void *ptr)
{
    pthread_mutex_lock(&p->mu);
    block *b = hash_find(p, ptr);
    size_t n = b ? b->size : 0;
    pthread_mutex_unlock(&p->mu);
    return n;
}

void gf_pool_stats_read(gf_pool *p, gf_pool_stats *st)
{
    pthread_mutex_lock(&p->mu);
    *st = p->st;
    st->cached_bytes = p->st.reserved_bytes - p->st.current_bytes;
    pthread_mutex_unlock(&p->mu);
}

void gf_pool_trim_cached(gf_pool *p)
{
    pthread_mutex_lock(&p->mu);
    release_cached(p);
    pthread_mutex_unlock(&p->mu);
}

/* Forgets that b was used on `stream` (which has no work left). */
static void forget_use(block *b, void *stream)
{
    for (int i = 0; i < b->nused; i++) {
        void **at = i < 4 ? &b->used[i] : &b->used_more[i - 4];
        if (*at != stream)
            continue;
        int last = b->nused - 1;
        *at = last < 4 ? b->used[last] : b->used_more[last - 4];
        b->nused--;
        return;
    }
}

void gf_pool_retire_stream(gf_pool *p, void *stream, void *to)
{
    pthread_mutex_lock(&p->mu);
    drain_events(p);
    for (size_t i = 0; i < p->nseg; i++) {
        for (block *b = p->segs[i]->first; b; b = b->next) {
            /* a live block used on the stream records no event there at
             * its free: the stream is gone (cudaEventRecord on a destroyed
             * stream crashed rt_gpu_fft on the H200) and has no work left */
            forget_use(b, stream);
            if (b->stream != stream)
                continue;
            if (b->in_tree) {
                tree_del(p, b);
                b->stream = to;
                tree_add(p, b);
            } else {
                b->stream = to;
            }
        }
    }
    pthread_mutex_unlock(&p->mu);
}

void gf_pool_default_config(gf_pool_config *cfg)
{
    cfg->round = 512;
    cfg->small_max = 1u << 20;
    cfg->small_segment = 2u << 20;
    cfg->large_round = 2u << 20;
    cfg->limit = 0;
    cfg->bypass = 0;
}

gf_status gf_pool_config_from_env(gf_pool_config *cfg)
{
    const char *v = getenv("GPUFUSE_POOL");
    if (v && (!strcmp(v, "off") || !strcmp(v, "0") || !strcmp(v, "bypass")))
        cfg->bypass = 1;
    v = getenv("GPUFUSE_POOL_LIMIT");
    if (v && *v) {
        size_t lim;
        if (gf_parse_size(v, &lim) != 0)
            return gf_fail(GF_ERROR_INVALID_VALUE,
                           "GPUFUSE_POOL_LIMIT=%s: expected bytes with optional K/M/G suffix", v);
        cfg->limit = lim;
    }
    return GF_SUCCESS;
}

gf_pool *gf_pool_create(const gf_pool_backend *be, const gf_pool_config *cfg)
{
    gf_pool *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->be = *be;
    if (cfg)
        p->cfg = *cfg;
    else
        gf_pool_default_config(&p->cfg);
    if (p->cfg.round == 0)
        p->cfg.round = 512;
    p->hmask = 255;
    p->hash = calloc(p->hmask + 1, sizeof *p->hash);
    if (!p->hash) {
        free(p);
        return NULL;
    }
    p->rng = 0x9E3779B9u;
    pthread_mutex_init(&p->mu, NULL);
    return p;
}

void gf_pool_destroy(gf_pool *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    drain_events(p);
    while (p->nseg) {
        segment *s = p->segs[p->nseg - 1];
        block *b = s->first;
        while (b) {
            block *nx = b->next;
            if (b != s->first)
                drop_block(p, b);
            b = nx;
        }
        s->first->next = NULL;
        seg_release(p, s);
    }
    pthread_mutex_unlock(&p->mu);
    while (p->spare) {
        block *b = p->spare;
        p->spare = b->hnext;
        free(b);
    }
    free(p->segs);
    free(p->hash);
    free(p->pend);
    pthread_mutex_destroy(&p->mu);
    free(p);
}
