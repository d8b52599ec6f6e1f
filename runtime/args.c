/* args.c - what gf_call_map needs to know about a call's pointer arguments
 * before touching memory: whether they overlap hazardously, and which
 * staged host ranges must share one device buffer.  Pure logic, no CUDA. */
#include "rt.h"

/* launch.h's GF_ARG_READ / GF_ARG_WRITE (launch.h pulls in CUDA headers) */
enum { GF_ARG_READ = 1, GF_ARG_WRITE = 2 };

static int touched(const gf_argdesc *a) { return a->hi > a->lo; }

static int overlap(const gf_argdesc *a, const gf_argdesc *b)
{
    uintptr_t alo = (uintptr_t)a->p + (uintptr_t)a->lo, ahi = (uintptr_t)a->p + (uintptr_t)a->hi;
    uintptr_t blo = (uintptr_t)b->p + (uintptr_t)b->lo, bhi = (uintptr_t)b->p + (uintptr_t)b->hi;
    return alo < bhi && blo < ahi;
}

/* launch.h: arguments with the same nonzero alias class use identical
 * subscripts, so they may be the very same pointer; read-only overlaps are
 * always fine; any other overlap involving a write is a hazard. */
int gf_args_hazard(const gf_argdesc *a, int n)
{
    for (int i = 0; i < n; i++) {
        if (!touched(&a[i]))
            continue;
        for (int j = i + 1; j < n; j++) {
            if (!touched(&a[j]) || !overlap(&a[i], &a[j]))
                continue;
            if (!((a[i].mode | a[j].mode) & GF_ARG_WRITE))
                continue;
            if (a[i].alias && a[i].alias == a[j].alias && a[i].p == a[j].p)
                continue;
            return 1;
        }
    }
    return 0;
}

int gf_args_group(const gf_argdesc *a, const int *idx, int m, int *group, gf_span *spans)
{
    /* order the members by start address (m is small: insertion sort) */
    int ord[m > 0 ? m : 1];
    for (int k = 0; k < m; k++) {
        int x = k;
        const char *xs = a[idx[k]].p + a[idx[k]].lo;
        int j = k - 1;
        while (j >= 0 && (uintptr_t)(a[idx[ord[j]]].p + a[idx[ord[j]]].lo) > (uintptr_t)xs) {
            ord[j + 1] = ord[j];
            j--;
        }
        ord[j + 1] = x;
    }
    int ns = -1;
    for (int k = 0; k < m; k++) {
        const gf_argdesc *d = &a[idx[ord[k]]];
        const char *lo = d->p + d->lo, *hi = d->p + d->hi;
        if (ns < 0 || (uintptr_t)lo >= (uintptr_t)spans[ns].hi) {
            ns++;
            spans[ns] = (gf_span){lo, hi, NULL, NULL, 0};
        } else if ((uintptr_t)hi > (uintptr_t)spans[ns].hi) {
            spans[ns].hi = hi;
        }
        gf_span *s = &spans[ns];
        if (d->mode & GF_ARG_READ)
            s->read = 1;
        if (d->mode & GF_ARG_WRITE) {
            if (s->wlo == s->whi) {
                s->wlo = lo;
                s->whi = hi;
            } else {
                if ((uintptr_t)lo < (uintptr_t)s->wlo)
                    s->wlo = lo;
                if ((uintptr_t)hi > (uintptr_t)s->whi)
                    s->whi = hi;
            }
        }
        group[ord[k]] = ns;
    }
    return ns + 1;
}

size_t gf_args_copy_bytes(const gf_span *spans, int ns)
{
    size_t n = 0;
    for (int s = 0; s < ns; s++)
        n += (spans[s].read ? (size_t)(spans[s].hi - spans[s].lo) : 0) + (size_t)(spans[s].whi - spans[s].wlo);
    return n;
}
