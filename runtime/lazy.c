/* lazy.c - gf_lazy: a resource made once, by whichever thread needs it first,
 * and then used under its lock (the staging ring of transfer.c: the warm-up
 * thread of prewarm.c and a first copy may both reach for it).  The maker
 * runs under the lock, so a second thread waits for it and then sees a
 * whole resource or a recorded failure: never two, never a half-made one.
 * A failure is not retried (the ring's users take another path instead).
 * CUDA-free, so that tests drive it with a fake maker. */
#include "rt.h"

int gf_lazy_acquire(gf_lazy *l, int (*make)(void *ctx), void *ctx)
{
    pthread_mutex_lock(&l->mu);
    if (l->state == GF_LAZY_NONE)
        l->state = make(ctx) ? GF_LAZY_READY : GF_LAZY_FAILED;
    if (l->state == GF_LAZY_READY)
        return 1;
    pthread_mutex_unlock(&l->mu);
    return 0;
}

void gf_lazy_release(gf_lazy *l) { pthread_mutex_unlock(&l->mu); }

int gf_lazy_prepare(gf_lazy *l, int (*make)(void *ctx), void *ctx)
{
    int ok = gf_lazy_acquire(l, make, ctx);
    if (ok)
        gf_lazy_release(l);
    return ok;
}

int gf_lazy_state(gf_lazy *l)
{
    pthread_mutex_lock(&l->mu);
    int s = l->state;
    pthread_mutex_unlock(&l->mu);
    return s;
}
