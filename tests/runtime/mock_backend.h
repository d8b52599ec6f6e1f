/* mock_backend.h - a gf_pool_backend on host memory for the pool tests:
 * a capacity to simulate out-of-memory, and events the test completes by
 * hand to check cross-stream gating. */
#ifndef MOCK_BACKEND_H
#define MOCK_BACKEND_H

#include "rt.h"

#include <pthread.h>
#include <stdlib.h>

typedef struct mock_event {
    int recorded, done;
    void *stream;
    struct mock_event *next;
} mock_event;

typedef struct mock {
    pthread_mutex_t mu;
    size_t capacity;         /* 0: unlimited */
    size_t in_use;
    int allocs, frees, fail_next;
    int live_events, syncs;
    mock_event *events;      /* all live events */
} mock;

static gf_status mock_alloc(void *ctx, void **ptr, size_t bytes)
{
    mock *m = ctx;
    pthread_mutex_lock(&m->mu);
    if (m->fail_next > 0 || (m->capacity && m->in_use + bytes > m->capacity)) {
        if (m->fail_next > 0)
            m->fail_next--;
        pthread_mutex_unlock(&m->mu);
        return GF_ERROR_OUT_OF_MEMORY;
    }
    m->in_use += bytes;
    m->allocs++;
    pthread_mutex_unlock(&m->mu);
    *ptr = aligned_alloc(512, (bytes + 511) / 512 * 512);
    return *ptr ? GF_SUCCESS : GF_ERROR_OUT_OF_MEMORY;
}

static void mock_free(void *ctx, void *ptr, size_t bytes)
{
    mock *m = ctx;
    pthread_mutex_lock(&m->mu);
    m->in_use -= bytes;
    m->frees++;
    pthread_mutex_unlock(&m->mu);
    free(ptr);
}

static gf_status mock_ev_create(void *ctx, void **ev)
{
    mock *m = ctx;
    mock_event *e = calloc(1, sizeof *e);
    pthread_mutex_lock(&m->mu);
    e->next = m->events;
    m->events = e;
    m->live_events++;
    pthread_mutex_unlock(&m->mu);
    *ev = e;
    return GF_SUCCESS;
}

static gf_status mock_ev_record(void *ctx, void *ev, void *stream)
{
    (void)ctx;
    mock_event *e = ev;
    e->recorded = 1;
    e->done = 0;
    e->stream = stream;
    return GF_SUCCESS;
}

static int mock_ev_query(void *ctx, void *ev)
{
    mock *m = ctx;
    pthread_mutex_lock(&m->mu);
    int d = ((mock_event *)ev)->done;
    pthread_mutex_unlock(&m->mu);
    return d;
}

static void mock_ev_destroy(void *ctx, void *ev)
{
    mock *m = ctx;
    pthread_mutex_lock(&m->mu);
    for (mock_event **pp = &m->events; *pp; pp = &(*pp)->next)
        if (*pp == ev) {
            *pp = ((mock_event *)ev)->next;
            break;
        }
    m->live_events--;
    pthread_mutex_unlock(&m->mu);
    free(ev);
}

/* "The GPU finished the work on `stream`" (NULL: on every stream). */
static void mock_complete(mock *m, void *stream)
{
    pthread_mutex_lock(&m->mu);
    for (mock_event *e = m->events; e; e = e->next)
        if (!stream || e->stream == stream)
            e->done = 1;
    pthread_mutex_unlock(&m->mu);
}

static void mock_sync(void *ctx)
{
    mock *m = ctx;
    m->syncs++;
    mock_complete(m, NULL);
}

static void mock_init(mock *m, size_t capacity)
{
    *m = (mock){.capacity = capacity};
    pthread_mutex_init(&m->mu, NULL);
}

static gf_pool_backend mock_backend(mock *m)
{
    return (gf_pool_backend){m, mock_alloc, mock_free, mock_ev_create, mock_ev_record,
                             mock_ev_query, mock_ev_destroy, mock_sync};
}

/* A pool on a fresh mock holding `capacity` bytes (0: unbounded), with the
 * given limit (0: none) and bypass switch; NULL when creation fails. */
static gf_pool *mock_pool(mock *m, size_t capacity, size_t limit, int bypass)
{
    mock_init(m, capacity);
    gf_pool_config cfg;
    gf_pool_default_config(&cfg);
    cfg.limit = limit;
    cfg.bypass = bypass;
    gf_pool_backend be = mock_backend(m);
    return gf_pool_create(&be, &cfg);
}

#endif
