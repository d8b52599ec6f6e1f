/* bench.h - what the benchmark drivers (CUDA) and the CPU self check (C)
 * share: problem sizes, the deterministic input generator, float64
 * reference formulas and the error metric with its tolerances.  Plain C11,
 * also compiled by nvcc, where the inline functions run on host and device. */
#ifndef GPUFUSE_BENCH_H
#define GPUFUSE_BENCH_H

#include <math.h>
#include <stdint.h>

#ifdef __CUDACC__
#define BENCH_HD __host__ __device__ __forceinline__
#else
#define BENCH_HD static inline
#endif

/* ---- sizes of the measured runs (f32) ---------------------------------- */
#define BENCH_CHAIN_N   (1 << 28)
#define BENCH_DOT_N     (1 << 28)
#define BENCH_ROWS      16384          /* softmax, layernorm */
#define BENCH_COLS      4096
#define BENCH_SHORT_ROWS (1 << 20)     /* softmax_short: the softmax C function */
#define BENCH_SHORT_COLS 128           /* on rows much shorter than a block */
#define BENCH_SQRT_N    100000000
#define BENCH_JACOBI_N  8192
#define BENCH_JACOBI_STEPS 5           /* two sweeps per step: 10 sweeps */
#define BENCH_BS_N      (1 << 26)
#define BENCH_BS_R      0.02f
#define BENCH_BS_V      0.30f

/* ---- tolerances ----------------------------------------------------------
 * err = max over elements of |got - ref| / max(|ref|, floor), ref computed
 * in float64 from the same float inputs.  Element-wise workloads must reach
 * 1e-5; reductions (dot, and the row reductions of softmax and layernorm)
 * 1e-3, since the order of a float sum is the implementation's choice;
 * blackscholes 1e-4 (see below). */
#define BENCH_TOL_ELEMENTWISE 1e-5
#define BENCH_TOL_REDUCTION   1e-3
/* Black-Scholes near the money at short expiry is ill-conditioned in float:
 * the rounding of log(S/K) (~1e-7) is amplified by S*pdf(d1)/(v*sqrt(T)),
 * so even the C body in float is ~1e-5 off its float64 value there. */
#define BENCH_TOL_BS          1e-4
/* floors: layernorm output is O(1) and crosses zero, so its error is taken
 * relative to 1; option prices are judged relative to max(price, 1) (one
 * currency unit; spot and strike are 1..100), because S*N(d1) - K*N(d2)
 * cancels in float for cheap options whatever the implementation does. */
#define BENCH_FLOOR_RELATIVE  1e-30
#define BENCH_FLOOR_LAYERNORM 1.0
#define BENCH_FLOOR_BS        1.0

/* ---- inputs: a counter-based hash, so every run and every implementation
 * (C, CUDA, Python) sees the same values without storing them ---------- */
BENCH_HD uint32_t bench_hash(uint32_t x)
{
    /* lowbias32 (Chris Wellons) */
    x ^= x >> 16; x *= 0x7feb352dU;
    x ^= x >> 15; x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

/* Uniform in [lo, hi): element i of stream `seed`. */
BENCH_HD float bench_uniform(uint32_t seed, uint32_t i, float lo, float hi)
{
    uint32_t h = bench_hash(i ^ bench_hash(seed * 0x9e3779b9U + 0x632be5abU));
    float u = (float)(h >> 8) * (1.0f / 16777216.0f);
    return lo + (hi - lo) * u;
}

/* Streams (seed) and ranges of every input; nothing is ever left zero. */
enum {
    SEED_CHAIN_A = 1, SEED_CHAIN_B, SEED_CHAIN_C,
    SEED_DOT_A, SEED_DOT_B,
    SEED_SOFTMAX_X,
    SEED_LN_X, SEED_LN_GAMMA, SEED_LN_BETA,
    SEED_SQRT_X,
    SEED_JACOBI,
    SEED_BS_S, SEED_BS_K, SEED_BS_T
};
#define RANGE_CHAIN_AB   0.1f, 2.0f
#define RANGE_CHAIN_C    0.0f, 2.0f
#define RANGE_DOT        0.5f, 1.5f
#define RANGE_SOFTMAX    -4.0f, 4.0f
#define RANGE_LN_X       -1.0f, 1.0f
#define RANGE_LN_GAMMA   0.5f, 1.5f
#define RANGE_LN_BETA    -0.5f, 0.5f
#define RANGE_SQRT       0.01f, 100.0f
#define RANGE_JACOBI     1.0f, 2.0f
#define RANGE_BS_S       5.0f, 30.0f
#define RANGE_BS_K       1.0f, 100.0f
#define RANGE_BS_T       0.25f, 10.0f

/* ---- float64 references of one element --------------------------------- */
BENCH_HD double ref_chain(float a, float b, float c)
{
    double x = a, y = b, z = c;
    return sqrt(x * x + y * y) * exp(-z) + sin(x) * 0.5;
}

BENCH_HD double ref_cnd(double d)
{
    const double a1 = 0.31938153, a2 = -0.356563782, a3 = 1.781477937,
                 a4 = -1.821255978, a5 = 1.330274429;
    const double rsqrt2pi = 0.39894228040143267794;
    double k = 1.0 / (1.0 + 0.2316419 * fabs(d));
    double c = rsqrt2pi * exp(-0.5 * d * d) *
               (k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))));
    return d > 0.0 ? 1.0 - c : c;
}

BENCH_HD void ref_blackscholes(float S, float K, float T, float r, float v,
                               double *call, double *put)
{
    double s = S, k = K, t = T, rr = r, vv = v;
    double sqrt_t = sqrt(t);
    double d1 = (log(s / k) + (rr + 0.5 * vv * vv) * t) / (vv * sqrt_t);
    double d2 = d1 - vv * sqrt_t;
    double c1 = ref_cnd(d1), c2 = ref_cnd(d2), disc = exp(-rr * t);
    *call = s * c1 - k * disc * c2;
    *put = k * disc * ref_cnd(-d2) - s * ref_cnd(-d1);
}

/* Row statistics in float64: softmax max and sum, layernorm mean and 1/std. */
BENCH_HD void ref_softmax_row(const float *x, int cols, double *m, double *s)
{
    double mm = -INFINITY, ss = 0.0;
    for (int j = 0; j < cols; j++) mm = x[j] > mm ? x[j] : mm;
    for (int j = 0; j < cols; j++) ss += exp((double)x[j] - mm);
    *m = mm; *s = ss;
}

BENCH_HD void ref_layernorm_row(const float *x, int cols, double *mean, double *rstd)
{
    double mu = 0.0, var = 0.0;
    for (int j = 0; j < cols; j++) mu += x[j];
    mu /= cols;
    for (int j = 0; j < cols; j++) var += (x[j] - mu) * (x[j] - mu);
    var /= cols;
    *mean = mu; *rstd = 1.0 / sqrt(var + 1e-5);
}

/* The error of one element; a NaN or infinity where the reference is
 * finite counts as infinitely wrong. */
BENCH_HD double bench_err(float got, double ref, double floor_)
{
    if (!isfinite(got)) return INFINITY;
    double d = fabs((double)got - ref), m = fabs(ref);
    return d / (m > floor_ ? m : floor_);
}

#endif /* GPUFUSE_BENCH_H */
