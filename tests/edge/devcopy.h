/* devcopy.h - device copies of host arrays for the edge tests that call
 * launchers with device pointers: to_dev allocates through the runtime's
 * pool and copies in (exit 1 when the pool refuses), from_dev copies back
 * and frees. */
#ifndef EDGE_DEVCOPY_H
#define EDGE_DEVCOPY_H

#include <gpufuse.h>
#include <stdio.h>
#include <stdlib.h>

static inline void *to_dev(const void *h, size_t bytes)
{
    void *d = NULL;
    if (gf_malloc(&d, bytes ? bytes : 1) != GF_SUCCESS) {
        printf("gf_malloc: %s\n", gf_last_error());
        exit(1);
    }
    if (bytes)
        gf_memcpy(d, h, bytes, GF_HOST_TO_DEVICE);
    return d;
}

static inline void from_dev(void *h, void *d, size_t bytes)
{
    gf_memcpy(h, d, bytes, GF_DEVICE_TO_HOST);
    gf_free(d);
}

#endif
