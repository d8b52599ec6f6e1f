/* verify_cmp.c - verify mode's comparison and messages (no CUDA): when two
 * scalars agree (integers exactly, floating point within an ulp distance or
 * a relative tolerance), where the first difference of an array is, and the
 * text that reports it.  runtime/verify.c takes the copies. */
#include "rt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Defaults (docs/runtime.md): values computed by the same expression on
 * both sides differ by math-library ulps and contraction (fma); results of
 * reductions are also summed in another order.  float / double: */
static const double default_rtol[2][2] = {{1e-4, 1e-6}, {1e-3, 1e-6}};
enum { DEFAULT_ULP = 4 };

void gf_vtol_default(gf_vtol *t)
{
    memcpy(t->rtol, default_rtol, sizeof t->rtol);
    t->ulp = DEFAULT_ULP;
}

int gf_vtol_from_env(gf_vtol *t)
{
    gf_vtol_default(t);
    const char *r = getenv("GPUFUSE_VERIFY_RTOL"), *u = getenv("GPUFUSE_VERIFY_ULP");
    if (r && *r) {
        char *end;
        double x = strtod(r, &end);
        if (*end || !(x >= 0) || x > 1) {
            gf_fail(GF_ERROR_INVALID_VALUE, "GPUFUSE_VERIFY_RTOL=%s: expected a relative tolerance in [0, 1]", r);
            return -1;
        }
        for (int c = 0; c < 2; c++)
            t->rtol[c][0] = t->rtol[c][1] = x;
    }
    if (u && *u) {
        char *end;
        long long x = strtoll(u, &end, 10);
        if (*end || x < 0) {
            gf_fail(GF_ERROR_INVALID_VALUE, "GPUFUSE_VERIFY_ULP=%s: expected a count of ulps (0 or more)", u);
            return -1;
        }
        t->ulp = x;
    }
    return 0;
}

/* The IEEE value's bits as an unsigned number ordered like the values. */
static uint64_t ordered(uint64_t bits, int size)
{
    uint64_t sign = size == 4 ? 0x80000000u : 0x8000000000000000ull;
    return bits & sign ? ~bits & (size == 4 ? 0xffffffffu : ~0ull) : bits | sign;
}

static double fvalue(const void *p, size_t size, uint64_t *bits)
{
    if (size == 4) {
        float f;
        uint32_t b;
        memcpy(&f, p, 4);
        memcpy(&b, p, 4);
        *bits = b;
        return f;
    }
    double d;
    memcpy(&d, p, 8);
    memcpy(bits, p, 8);
    return d;
}

static int fclose_enough(const void *got, const void *ref, size_t size, double rtol, long long ulp)
{
    uint64_t gb, rb;
    double g = fvalue(got, size, &gb), r = fvalue(ref, size, &rb);
    if (isnan(g) || isnan(r))
        return isnan(g) && isnan(r);
    if (g == r)
        return 1;
    if (isinf(g) || isinf(r))
        return 0;
    uint64_t og = ordered(gb, (int)size), orr = ordered(rb, (int)size);
    if ((og > orr ? og - orr : orr - og) <= (uint64_t)ulp)
        return 1;
    double m = fmax(fmax(fabs(g), fabs(r)), 1.0);
    return fabs(g - r) <= rtol * m;
}

int gf_vclose(int kind, size_t size, const void *got, const void *ref, const gf_vtol *t, int cls)
{
    if (kind == GF_VK_FLOAT && (size == 4 || size == 8))
        return fclose_enough(got, ref, size, t->rtol[cls != 0][size == 8], t->ulp);
    if (kind == GF_VK_BOOL) {
        int g = 0, r = 0;
        for (size_t i = 0; i < size; i++)
            g |= ((const unsigned char *)got)[i], r |= ((const unsigned char *)ref)[i];
        return !g == !r;
    }
    return !memcmp(got, ref, size);
}

static long long sint(const void *p, size_t size)
{
    int8_t a;
    int16_t b;
    int32_t c;
    int64_t d;
    switch (size) {
    case 1: memcpy(&a, p, 1); return a;
    case 2: memcpy(&b, p, 2); return b;
    case 4: memcpy(&c, p, 4); return c;
    default: memcpy(&d, p, 8); return d;
    }
}

static unsigned long long uint_(const void *p, size_t size)
{
    uint8_t a;
    uint16_t b;
    uint32_t c;
    uint64_t d;
    switch (size) {
    case 1: memcpy(&a, p, 1); return a;
    case 2: memcpy(&b, p, 2); return b;
    case 4: memcpy(&c, p, 4); return c;
    default: memcpy(&d, p, 8); return d;
    }
}

void gf_vvalue(char *buf, size_t n, int kind, size_t size, const void *p)
{
    uint64_t bits;
    int sized = size == 1 || size == 2 || size == 4 || size == 8;
    if (kind == GF_VK_FLOAT && (size == 4 || size == 8))
        snprintf(buf, n, size == 4 ? "%.9g" : "%.17g", fvalue(p, size, &bits));
    else if (kind == GF_VK_INT && sized)
        snprintf(buf, n, "%lld", sint(p, size));
    else if ((kind == GF_VK_UINT || kind == GF_VK_BOOL) && sized)
        snprintf(buf, n, "%llu", uint_(p, size));
    else {
        size_t k = 0;
        k += (size_t)snprintf(buf, n, "0x");
        for (size_t i = 0; i < size && i < 32 && k + 3 < n; i++)
            k += (size_t)snprintf(buf + k, n - k, "%02x", ((const unsigned char *)p)[i]);
        if (size > 32 && k + 4 < n)
            snprintf(buf + k, n - k, "...");
    }
}

void gf_vindex(char *buf, size_t n, long long flat, int ndims, const long long *dims)
{
    long long idx[GF_VERIFY_MAXDIMS + 1];
    int ok = ndims >= 0 && ndims <= GF_VERIFY_MAXDIMS && flat >= 0;
    for (int d = 0; ok && d < ndims; d++)
        ok = dims[d] > 0;
    if (!ok) {
        snprintf(buf, n, "[%lld]", flat);
        return;
    }
    for (int d = ndims; d > 0; d--) {
        idx[d] = flat % dims[d - 1];
        flat /= dims[d - 1];
    }
    idx[0] = flat;
    size_t k = 0;
    for (int d = 0; d <= ndims && k < n; d++)
        k += (size_t)snprintf(buf + k, n - k, "[%lld]", idx[d]);
}

/* An element with no field list is one scalar of `elem` bytes. */
static gf_vfield whole(size_t elem) { return (gf_vfield){"", 0, elem, GF_VK_BYTES}; }

long long gf_vcompare(const char *got, const char *ref, size_t bytes, size_t elem, const gf_vfield *f, int nf,
                      const gf_vtol *t, int cls, gf_vdiff *d)
{
    gf_vfield one = whole(elem);
    if (nf <= 0) {
        f = &one;
        nf = 1;
    }
    d->count = 0;
    d->elem = -1;
    d->field = 0;
    if (!elem)
        return 0;
    long long n = (long long)(bytes / elem);
    for (long long e = 0; e < n; e++) {
        const char *g = got + (size_t)e * elem, *r = ref + (size_t)e * elem;
        for (int k = 0; k < nf; k++) {
            if (f[k].offset + f[k].size > elem ||
                gf_vclose(f[k].kind, f[k].size, g + f[k].offset, r + f[k].offset, t, cls))
                continue;
            if (!d->count) {
                d->elem = e;
                d->field = k;
            }
            d->count++;
            break; /* elements are counted once */
        }
    }
    return d->count;
}

static void describe_tol(char *buf, size_t n, int kind, size_t size, const gf_vtol *t, int cls)
{
    if (kind == GF_VK_FLOAT && (size == 4 || size == 8))
        snprintf(buf, n, "; tolerance %g relative or %lld ulp", t->rtol[cls != 0][size == 8], t->ulp);
    else
        snprintf(buf, n, "; compared exactly");
}

void gf_vdescribe(char *buf, size_t n, const gf_varray *a, const char *got, const char *ref, const gf_vdiff *d,
                  const gf_vtol *t)
{
    gf_vfield one = whole(a->elem);
    const gf_vfield *f = a->nfields > 0 ? &a->fields[d->field] : &one;
    size_t off = (size_t)d->elem * a->elem + f->offset;
    char idx[160], gv[96], rv[96], tol[80];
    gf_vindex(idx, sizeof idx, a->first + d->elem, a->ndims, a->dims);
    gf_vvalue(gv, sizeof gv, f->kind, f->size, got + off);
    gf_vvalue(rv, sizeof rv, f->kind, f->size, ref + off);
    describe_tol(tol, sizeof tol, f->kind, f->size, t, a->tol);
    long long total = a->elem ? (long long)(a->bytes / a->elem) : 0;
    snprintf(buf, n, "'%s' differs from the C body in %lld of %lld element%s; first at %s%s%s: %s (launcher), %s (C body)%s",
             a->name, d->count, total, total == 1 ? "" : "s", a->name, idx, f->name, gv, rv, tol);
}

void gf_vdescribe_return(char *buf, size_t n, int kind, size_t size, const void *got, const void *ref,
                         const gf_vtol *t, int cls)
{
    char gv[96], rv[96], tol[80];
    gf_vvalue(gv, sizeof gv, kind, size, got);
    gf_vvalue(rv, sizeof rv, kind, size, ref);
    describe_tol(tol, sizeof tol, kind, size, t, cls);
    snprintf(buf, n, "the return value differs from the C body: %s (launcher), %s (C body)%s", gv, rv, tol);
}
