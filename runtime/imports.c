/* imports.c - the extents of memory imported from other frameworks
 * (gf_from_dlpack): launchers look arguments up here to use foreign device
 * memory as it is and to refuse a call that would touch bytes outside it.
 * Ranges may overlap (two views of one buffer), so the table is a plain
 * array scanned in order; an empty table costs one atomic load.  No CUDA. */
#include "rt.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static gf_import *table;
static int n, cap;
static atomic_int count;

gf_status gf_imports_add(const gf_import *im)
{
    pthread_mutex_lock(&mu);
    for (int i = 0; i < n; i++) {
        if (table[i].owner == im->owner) {
            pthread_mutex_unlock(&mu);
            return gf_fail(GF_ERROR_INVALID_VALUE, "gf_from_dlpack(%p): this tensor is already imported",
                           im->owner);
        }
    }
    if (n == cap) {
        int c = cap ? cap * 2 : 16;
        gf_import *v = realloc(table, (size_t)c * sizeof *v);
        if (!v) {
            pthread_mutex_unlock(&mu);
            return gf_fail(GF_ERROR_OUT_OF_MEMORY, "gf_from_dlpack: out of host memory");
        }
        table = v;
        cap = c;
    }
    table[n++] = *im;
    atomic_store(&count, n);
    pthread_mutex_unlock(&mu);
    return GF_SUCCESS;
}

int gf_imports_remove(const void *owner, gf_import *out)
{
    int found = 0;
    pthread_mutex_lock(&mu);
    for (int i = 0; i < n; i++) {
        if (table[i].owner != owner)
            continue;
        if (out)
            *out = table[i];
        table[i] = table[--n];
        found = 1;
        break;
    }
    atomic_store(&count, n);
    if (!n) { /* the last one gone: no memory held between uses */
        free(table);
        table = NULL;
        cap = 0;
    }
    pthread_mutex_unlock(&mu);
    return found;
}

static int contains(const gf_import *im, const char *lo, size_t bytes)
{
    return lo >= im->lo && (size_t)(lo - im->lo) <= im->bytes && bytes <= im->bytes - (size_t)(lo - im->lo);
}

static int overlaps(const gf_import *im, const char *lo, size_t bytes)
{
    return im->bytes && bytes && lo < im->lo + im->bytes && im->lo < lo + bytes;
}

int gf_imports_find(const void *p, size_t bytes, gf_import *out)
{
    if (!atomic_load_explicit(&count, memory_order_relaxed) || !bytes)
        return 0;
    const char *lo = p;
    int r = 0;
    pthread_mutex_lock(&mu);
    for (int i = 0; i < n; i++) {
        if (table[i].bytes && contains(&table[i], lo, bytes)) {
            *out = table[i];
            r = 1;
            break;
        }
        if (!r && overlaps(&table[i], lo, bytes)) {
            *out = table[i];
            r = -1; /* keep looking for one that holds the whole range */
        }
    }
    pthread_mutex_unlock(&mu);
    return r;
}

int gf_imports_count(void) { return atomic_load(&count); }
