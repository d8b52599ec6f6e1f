/* device.cuh - the building blocks of gpufuse's kernels: reduction
 * operators with their identities, warp and block reductions, and the
 * deterministic last-block finish of a grid reduction.  Embedded into every
 * generated .gf.cu; compilable on its own with nvcc. */
#include <cuda_runtime.h>
#include <cuda/std/limits>
#include <gpufuse/launch.h>

#define GF_THREADS 256
/* extents below this use 32-bit index arithmetic (room left for grid strides) */
#define GF_I32_LIMIT ((1LL << 31) - (1LL << 26))
/* consecutive outer indices one block of a 2-D/3-D map walks */
#define GF_ROWS 16
/* partials one grid reduction keeps (one per block): a reduction's grid never
 * has more blocks than this, whatever its shape */
#define GF_PARTS 8192

/* Blocks of `kernel` resident on the whole device at once (at least one per
 * SM, at most GF_PARTS): the size of a grid-stride launch with no second,
 * partial wave. */
template <typename K> static inline int gf_resident(K kernel, int threads, int sms)
{
    int per = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, kernel, threads, 0) != cudaSuccess || per < 1)
        per = 1;
    long long n = (long long)per * sms;
    return (int)(n < GF_PARTS ? n : GF_PARTS);
}

/* A kernel launch of a launcher that may run as a CUDA graph (runtime/
 * graph.c): a plain launch, unless the runtime is recording this call for
 * a graph or replaying one; then the parameters, converted to the kernel's
 * own types, go to gf_graph_kernel, which records them or updates the
 * graph's node.  Failures are checked by the launcher's gf_call_check as for
 * any launch (nothing was launched yet when recording: that always passes;
 * the runtime reports what fails later the same way). */
/* The key of a launcher's integer scalars (gf_graph_begin). */
GF_UNUSED static inline unsigned long long gf_kmix(unsigned long long h, unsigned long long v)
{
    h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdULL;
}
template <typename T> struct gf_same { typedef T type; };
template <typename... P>
static inline void gf_launch_graph(gf_call *c, const char *name, void (*k)(P...), dim3 g, dim3 b, size_t sh,
                                   typename gf_same<P>::type... p)
{
    void *a[sizeof...(P) + 1] = {(void *)&p..., nullptr};
    const size_t s[sizeof...(P) + 1] = {sizeof(P)..., 0};
    gf_graph_kernel(c, name, (const void *)k, g, b, sh, a, s, (int)sizeof...(P));
}
template <typename... P, typename... A>
static inline void gf_launch(gf_call *c, const char *name, void (*k)(P...), dim3 g, dim3 b, size_t sh,
                             cudaStream_t s, A... a)
{
    if (gf_graph_on(c))
        gf_launch_graph<P...>(c, name, k, g, b, sh, a...);
    else
        k<<<g, b, sh, s>>>(a...);
}

/* ---- launch geometry: the blocks and threads of each kernel shape.  The
 * compiler picks a policy per kernel (compiler/back/lower.h, Geom); the
 * launchers it prints take the sizes from here. */

/* Blocks of GF_THREADS for n elements (at least one); strips of GF_ROWS
 * outer indices for a 2-D or 3-D grid's y. */
GF_UNUSED static inline long long gf_blocks_for(long long n, long long t = GF_THREADS) { return gf_max(1, (n + t - 1) / t); }
GF_UNUSED static inline long long gf_strips_for(long long n) { return gf_max(1, (n + GF_ROWS - 1) / GF_ROWS); }
/* The y blocks of a 2-D or 3-D map (x: gx blocks): a strip of GF_ROWS outer
 * indices each, or as many as give the grid 4 blocks per SM, up to one
 * outer index a block, when the strips would leave SMs idle (few, heavy
 * rows: PolyBench doitgen's 150 x 140 elements of 25600 multiply-adds ran
 * in 10 blocks, 36 ms on the H200).  The kernel walks gf_strip_rows. */
GF_UNUSED static inline long long gf_strips_2d(long long outer, long long gx, int sms)
{
    const long long want = (4LL * (sms > 0 ? sms : 1) + gx - 1) / gf_max(1, gx);
    return gf_max(gf_strips_for(outer), gf_min(outer, want));
}
/* The outer indices a block walks: GF_ROWS, or fewer when the launcher
 * gave y more blocks than strips of GF_ROWS (gf_strips_2d). */
template <typename I> __device__ static inline I gf_strip_rows(I outer)
{
    const I per = (outer + (I)gridDim.y - 1) / (I)gridDim.y;
    return per < 1 ? (I)1 : per < (I)GF_ROWS ? per : (I)GF_ROWS;
}
/* GEOM_COVER (maps): every element its thread, the whole grid at once (a
 * thread per float4 of sqrt over 1e8 floats: 4150 GB/s on the H200, against
 * 3780 for a resident grid striding); y at most 65535 strips, striding beyond. */
GF_UNUSED static inline unsigned gf_cover_1d(long long need) { return (unsigned)gf_min(need, 2147483647LL); }
/* The threads of a cover block for n threads' work: GF_THREADS, or fewer,
 * down to a warp, when blocks of GF_THREADS would leave SMs idle.  Few,
 * heavy threads (PolyBench adi: 998 rows of a sequential recurrence ran as
 * 4 blocks of 256 on 4 of the H200's 132 SMs, their uncoalesced accesses
 * queued on 4 SMs' load units) spread over up to as many SMs as they fill
 * with whole warps; many threads keep GF_THREADS.  Only for maps whose
 * loops access across rows (compiler/back/lower.c, KernelLow.spread): where
 * warps of one SM share what they read, they are better together. */
GF_UNUSED static inline unsigned gf_cover_threads(long long n, int sms)
{
    const long long s = sms > 0 ? sms : 1;
    return (unsigned)gf_max(32, gf_min(GF_THREADS, ((n + s - 1) / s + 31) / 32 * 32));
}
GF_UNUSED static inline dim3 gf_cover_2d(long long gx, long long strips)
{
    return dim3((unsigned)gf_min(gx, 2147483647LL), (unsigned)gf_min(strips, 65535));
}
/* A region in one block (compiler/back/lower.h, RegionLow.block): taken
 * when every kernel has at most GF_BLOCK_ELEMS elements, run by at most
 * GF_BLOCK_THREADS threads striding, __syncthreads() between the kernels.
 * On the H200 three dependent 256-element maps cost 1.9 us a call this way
 * against 3.6-4.1 us as three kernels, both replayed as CUDA graphs; at 4096
 * elements 3.4 against 5.1-5.2 us, at 16384 7.4 against 5.1-5.4 (one SM is
 * then slower than the launches it saves). */
#define GF_BLOCK_ELEMS 4096
#define GF_BLOCK_THREADS 1024
GF_UNUSED static inline unsigned gf_block_threads(long long n)
{
    return (unsigned)gf_max(32, gf_min(GF_BLOCK_THREADS, (n + 31) / 32 * 32));
}
/* GEOM_RESIDENT (grid reductions): at most `cap` blocks (gf_resident), one
 * partial each; a 2-D grid gives x what it needs first. */
GF_UNUSED static inline unsigned gf_resident_1d(long long need, long long cap) { return (unsigned)gf_min(need, cap); }
GF_UNUSED static inline dim3 gf_resident_2d(long long gx, long long strips, long long cap)
{
    return dim3((unsigned)gf_min(gx, cap), (unsigned)gf_max(1, gf_min(gf_min(strips, 65535), cap / gf_min(gx, cap))));
}
/* GEOM_TILES (SH_TILED): a GF_TILE x GF_TILE block of threads per output
 * tile, x over the columns (j), y over the rows (i); y at most 65535 tiles,
 * the kernel strides beyond.  A tile is GF_TILE x GF_TILE outputs, or, with
 * register blocks, ti x tj (each thread computes ti / GF_TILE x tj / GF_TILE
 * of them).  Each chunk of k values is staged in shared memory (the tile's
 * side by the chunk, plus one column, per staged operand). */
#define GF_TILE 16
GF_UNUSED static inline long long gf_tiles_for(long long n, long long t = GF_TILE) { return gf_max(1, (n + t - 1) / t); }
GF_UNUSED static inline dim3 gf_tile_grid(long long n0, long long n1, long long ti = GF_TILE, long long tj = GF_TILE)
{
    return dim3((unsigned)gf_min(gf_tiles_for(n1, tj), 2147483647LL), (unsigned)gf_min(gf_tiles_for(n0, ti), 65535));
}
GF_UNUSED static inline dim3 gf_tile_block(void) { return dim3(GF_TILE, GF_TILE); }
/* GEOM_ROWS (row kernels): rows up to GF_WARP_ROW_MAX elements are a warp's
 * work, GF_WARP_ROW_BLOCK / 32 rows to a block; a longer row is a block's,
 * of 64 to 1024 threads, sized so that each thread holds up to 16 of its
 * elements.  `per`: the elements each thread holds (the kernel's
 * GF_ITEMS * GF_VEC instantiation is the first that covers it). */
#define GF_WARP_ROW_MAX 512
#define GF_WARP_ROW_BLOCK 256
struct gf_row_geom {
    bool warp;                   /* a warp per row */
    int threads;                 /* per block */
    long long per, blocks;
};
GF_UNUSED static inline gf_row_geom gf_row_geometry(long long rows, long long cols)
{
    gf_row_geom g;
    int threads = 64;
    while (threads < 1024 && threads * 16 < cols)
        threads *= 2;
    g.warp = cols <= GF_WARP_ROW_MAX;
    if (g.warp)
        threads = 32;
    g.per = (cols + threads - 1) / threads;
    g.threads = g.warp ? GF_WARP_ROW_BLOCK : threads;
    g.blocks = gf_min(g.warp ? (rows + GF_WARP_ROW_BLOCK / 32 - 1) / (GF_WARP_ROW_BLOCK / 32) : rows, 2147483647LL);
    return g;
}

/* A block's place in its grid and the grid's size, over every grid
 * dimension: a reduction's partials and its ticket count all blocks. */
__device__ inline unsigned gf_block_id(void) { return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z); }
__device__ inline unsigned gf_grid_blocks(void) { return gridDim.x * gridDim.y * gridDim.z; }

template <typename T> struct gf_add { static __device__ T id() { return T(0); } __device__ T operator()(T a, T b) const { return a + b; } };
template <typename T> struct gf_mul { static __device__ T id() { return T(1); } __device__ T operator()(T a, T b) const { return a * b; } };
template <typename T> struct gf_maxop {
    static __device__ T id() { return cuda::std::numeric_limits<T>::has_infinity ? -cuda::std::numeric_limits<T>::infinity() : cuda::std::numeric_limits<T>::lowest(); }
    __device__ T operator()(T a, T b) const { return a > b ? a : b; }
};
template <> struct gf_maxop<float> { static __device__ float id() { return -INFINITY; } __device__ float operator()(float a, float b) const { return fmaxf(a, b); } };
template <> struct gf_maxop<double> { static __device__ double id() { return -INFINITY; } __device__ double operator()(double a, double b) const { return fmax(a, b); } };
template <typename T> struct gf_minop {
    static __device__ T id() { return cuda::std::numeric_limits<T>::has_infinity ? cuda::std::numeric_limits<T>::infinity() : cuda::std::numeric_limits<T>::max(); }
    __device__ T operator()(T a, T b) const { return a < b ? a : b; }
};
template <> struct gf_minop<float> { static __device__ float id() { return INFINITY; } __device__ float operator()(float a, float b) const { return fminf(a, b); } };
template <> struct gf_minop<double> { static __device__ double id() { return INFINITY; } __device__ double operator()(double a, double b) const { return fmin(a, b); } };
#if defined(GF_USES_F16)
/* max and min of _Float16: compared in float, as C compares them (exact);
 * no sum or product (C rounds to half at every step: deps.c refuses it) */
template <> struct gf_maxop<gf_f16> {
    static __device__ gf_f16 id() { return __ushort_as_half((unsigned short)0xfc00u); }
    __device__ gf_f16 operator()(gf_f16 a, gf_f16 b) const { return fmaxf(gf_h2f(a), gf_h2f(b)) == gf_h2f(a) ? a : b; }
};
template <> struct gf_minop<gf_f16> {
    static __device__ gf_f16 id() { return __ushort_as_half((unsigned short)0x7c00u); }
    __device__ gf_f16 operator()(gf_f16 a, gf_f16 b) const { return fminf(gf_h2f(a), gf_h2f(b)) == gf_h2f(a) ? a : b; }
};
#endif
template <typename T> struct gf_land { static __device__ T id() { return T(1); } __device__ T operator()(T a, T b) const { return a && b; } };
template <typename T> struct gf_lor { static __device__ T id() { return T(0); } __device__ T operator()(T a, T b) const { return a || b; } };
template <typename T> struct gf_band { static __device__ T id() { return T(~T(0)); } __device__ T operator()(T a, T b) const { return a & b; } };
template <typename T> struct gf_bor { static __device__ T id() { return T(0); } __device__ T operator()(T a, T b) const { return a | b; } };
template <typename T> struct gf_bxor { static __device__ T id() { return T(0); } __device__ T operator()(T a, T b) const { return a ^ b; } };

/* Shuffles for every arithmetic type (narrow ones travel as int). */
template <typename T> __device__ inline T gf_shfl_xor(T v, int o)
{
    if (sizeof(T) < 4)
        return (T)__shfl_xor_sync(0xffffffffu, (int)v, o);
    return __shfl_xor_sync(0xffffffffu, v, o);
}

#if defined(GF_USES_F16)
template <> __device__ inline gf_f16 gf_shfl_xor<gf_f16>(gf_f16 v, int o) { return __shfl_xor_sync(0xffffffffu, v, o); }
#endif
#if defined(GF_USES_COMPLEX)
/* complex: the two parts travel apart, so a complex sum's tree is the two
 * real sums' trees, in the same order as a float sum's (docs/types.md) */
template <> __device__ inline gf_c32 gf_shfl_xor<gf_c32>(gf_c32 v, int o)
{
    return gf_c32(__shfl_xor_sync(0xffffffffu, v.x, o), __shfl_xor_sync(0xffffffffu, v.y, o));
}
template <> __device__ inline gf_c64 gf_shfl_xor<gf_c64>(gf_c64 v, int o)
{
    return gf_c64(__shfl_xor_sync(0xffffffffu, v.x, o), __shfl_xor_sync(0xffffffffu, v.y, o));
}
/* the streaming loads and stores of the kernels, as one 8- or 16-byte access */
__device__ inline gf_c32 __ldcs(const gf_c32 *p) { float2 v = __ldcs((const float2 *)p); return gf_c32(v.x, v.y); }
__device__ inline gf_c64 __ldcs(const gf_c64 *p) { double2 v = __ldcs((const double2 *)p); return gf_c64(v.x, v.y); }
__device__ inline void __stcs(gf_c32 *p, gf_c32 v) { __stcs((float2 *)p, make_float2(v.x, v.y)); }
__device__ inline void __stcs(gf_c64 *p, gf_c64 v) { __stcs((double2 *)p, make_double2(v.x, v.y)); }
#endif

template <typename T, typename Op> __device__ inline T gf_warp_reduce(T v, Op op)
{
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)
        v = op(v, gf_shfl_xor(v, o));
    return v;
}

/* All threads of the block get the result.  Safe to call repeatedly. */
template <typename T, typename Op> __device__ inline T gf_block_reduce(T v, Op op)
{
    __shared__ T gf_sh[33];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nwarps = (blockDim.x + 31) >> 5;
    v = gf_warp_reduce(v, op);
    __syncthreads();             /* the previous call's readers are done */
    if (lane == 0)
        gf_sh[warp] = v;
    __syncthreads();
    if (warp == 0) {
        T w = lane < nwarps ? gf_sh[lane] : Op::id();
        w = gf_warp_reduce(w, op);
        if (lane == 0)
            gf_sh[32] = w;
    }
    __syncthreads();
    return gf_sh[32];
}

/* A row kernel's group of threads: the whole block (G = 0) or one warp
 * (G = 32, short rows).  Every thread of the group gets the result. */
template <int G, typename T, typename Op> __device__ inline T gf_group_reduce(T v, Op op)
{
    if (G)
        return gf_warp_reduce(v, op);
    return gf_block_reduce(v, op);
}

template <int G> __device__ inline void gf_group_sync()
{
    if (G)
        __syncwarp();
    else
        __syncthreads();
}

/* True in the one block that arrives last; that block then sees every
 * other block's partial.  The ticket is left at zero for the next launch. */
__device__ inline bool gf_last_block(unsigned *ticket)
{
    __shared__ bool gf_last;
    __threadfence();
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned t = atomicAdd(ticket, 1u);
        gf_last = t == gf_grid_blocks() - 1;
        if (gf_last)
            *ticket = 0;
    }
    __syncthreads();
    return gf_last;
}

/* Sums partials in a fixed order: the result does not depend on timing. */
template <typename T, typename Op> __device__ inline T gf_finish(const T *partials, int n, Op op)
{
    T v = Op::id();
    for (int b = threadIdx.x; b < n; b += blockDim.x)
        v = op(v, ((volatile const T *)partials)[b]);
    return gf_block_reduce(v, op);
}

/* Atomic updates of writes that may collide (hist[bin[i]] += w[i]): CUDA has
 * atomicAdd for float and double, and add/and/or/xor for 32- and 64-bit
 * unsigned words; signed and other integers of those widths go through the
 * unsigned word of their size (two's complement: the same bits). */
template <int N> struct gf_uword;
template <> struct gf_uword<4> { typedef unsigned type; };
template <> struct gf_uword<8> { typedef unsigned long long type; };
__device__ inline void gf_atomic_add(float *p, float v) { atomicAdd(p, v); }
__device__ inline void gf_atomic_add(double *p, double v) { atomicAdd(p, v); }
#define GF_ATOMIC_INT(T)                                                                                  \
    __device__ inline void gf_atomic_add(T *p, T v) { typedef gf_uword<sizeof(T)>::type W; atomicAdd((W *)p, (W)v); } \
    __device__ inline void gf_atomic_and(T *p, T v) { typedef gf_uword<sizeof(T)>::type W; atomicAnd((W *)p, (W)v); } \
    __device__ inline void gf_atomic_or(T *p, T v) { typedef gf_uword<sizeof(T)>::type W; atomicOr((W *)p, (W)v); }   \
    __device__ inline void gf_atomic_xor(T *p, T v) { typedef gf_uword<sizeof(T)>::type W; atomicXor((W *)p, (W)v); }
GF_ATOMIC_INT(int)
GF_ATOMIC_INT(unsigned)
GF_ATOMIC_INT(long)
GF_ATOMIC_INT(unsigned long)
GF_ATOMIC_INT(long long)
GF_ATOMIC_INT(unsigned long long)
#undef GF_ATOMIC_INT

/* Integer min/max (a[k] = v > a[k] ? v : a[k]): atomicMax/atomicMin on the
 * signed or unsigned word of the element's size. */
template <int N> struct gf_sword;
template <> struct gf_sword<4> { typedef int type; };
template <> struct gf_sword<8> { typedef long long type; };
#define GF_ATOMIC_MINMAX(T, WORD)                                                                          \
    __device__ inline void gf_atomic_max(T *p, T v) { typedef WORD<sizeof(T)>::type W; atomicMax((W *)p, (W)v); } \
    __device__ inline void gf_atomic_min(T *p, T v) { typedef WORD<sizeof(T)>::type W; atomicMin((W *)p, (W)v); }
GF_ATOMIC_MINMAX(int, gf_sword)
GF_ATOMIC_MINMAX(unsigned, gf_uword)
GF_ATOMIC_MINMAX(long, gf_sword)
GF_ATOMIC_MINMAX(unsigned long, gf_uword)
GF_ATOMIC_MINMAX(long long, gf_sword)
GF_ATOMIC_MINMAX(unsigned long long, gf_uword)
#undef GF_ATOMIC_MINMAX

/* Compare-and-swap updates, for what has no atomic instruction (float and
 * double min/max, every *=): the generated loop computes the new value from
 * gf_old exactly as the C statement does and calls gf_cas until no other
 * thread changed the element in between.  The words are compared bit for
 * bit, so a NaN element cannot make it spin.  When the new value has the
 * bits of the old one nothing is written: the update took effect at the
 * moment gf_old was read. */
template <typename T> __device__ inline T gf_atomic_load(T *p) { return *(volatile T *)p; }
template <typename T> __device__ inline bool gf_cas(T *p, T *old, T val)
{
    typedef typename gf_uword<sizeof(T)>::type W;
    W o, n;
    memcpy(&o, old, sizeof o);
    memcpy(&n, &val, sizeof n);
    if (o == n)
        return true;
    W seen = atomicCAS((W *)p, o, n);
    if (seen == o)
        return true;
    memcpy(old, &seen, sizeof seen);
    return false;
}

GF_UNUSED static inline bool gf_aligned16(const void *p) { return ((uintptr_t)p & 15u) == 0; }

/* The cost model of a launcher whose plan launches kernels in host loops
 * or runs loops in a serial kernel (docs/performance.md, "Launches against
 * work"): the GPU wins when its launches, the copies back that wait for
 * it and the statement instances one GPU thread runs in order cost less
 * than the C body running every statement instance on one core.  The
 * parallel kernels' own work counts as free next to the C body's. */
#define GF_COST_LAUNCH_NS 4000.0 /* a launch, back to back: 3.7 us measured on the H200 */
#define GF_COST_SYNC_NS 10000.0  /* a copy back that waits for the queued kernels */
#define GF_COST_SERIAL_NS 30.0   /* a statement instance in a serial kernel (one thread) */
#define GF_COST_CPU_NS 1.0       /* a statement instance of the C body */
GF_UNUSED static inline bool gf_gpu_wins(double launches, double syncs, double par, double ser)
{
    return launches * GF_COST_LAUNCH_NS + syncs * GF_COST_SYNC_NS + ser * GF_COST_SERIAL_NS <
           (par + ser) * GF_COST_CPU_NS;
}
/* The GPU's time for a call, ns, without its copies (gf_call_map adds
 * those): for gf_call_weigh, against the CPU's (gf_host_cpu_ns). */
#define GF_COST_GPU_PAR_NS 0.0005 /* a statement instance of a parallel kernel: 2e12 a second */
GF_UNUSED static inline double gf_gpu_ns(double launches, double syncs, double par, double ser)
{
    return launches * GF_COST_LAUNCH_NS + syncs * GF_COST_SYNC_NS + ser * GF_COST_SERIAL_NS + par * GF_COST_GPU_PAR_NS;
}
/* A loop's trip count from its bounds (as doubles: estimates). */
GF_UNUSED static inline double gf_trips(double lb, double ub, double step) { return ub > lb ? (ub - lb) / step : 0; }

/* A scalar the host holds, stored into its device slot in stream order
 * (a kernel argument is copied at the launch: the host variable may change
 * at once, and nothing waits). */
template <typename T> __global__ void __launch_bounds__(1) gf_store(T *slot, T v) { *slot = v; }

/* The kernel a launcher runs for a recognised SYMM form (libcall.c) when
 * cuBLAS is not used (not loaded yet, GPUFUSE_BLAS=0, or sizes it cannot
 * take): C = alpha * S * B + beta * C (left) or alpha * B * S + beta * C
 * (right), row-major, S symmetric with the lower (upper) triangle of A read,
 * the product summed in the order of its inner index as cuBLAS's may not.
 * The nest as written updates rows of C in a loop that cannot run in
 * parallel (a thread per column: 47 ms for PolyBench symm at LARGE on the
 * H200); this is the product as a GEMM: 64 x 64 tiles of C, 256 threads of
 * 4 x 4 elements, the inner index by 16 through shared memory, S's elements
 * read from whichever triangle holds them.  beta * C is computed as the C
 * body does (beta = 0 still reads C). */
#define GF_SY_TILE 64
#define GF_SY_K 16
template <typename T>
__device__ inline T gf_sym_at(const T *__restrict__ A, long long lda, long long i, long long k, int upper)
{
    const bool mine = upper ? k >= i : k <= i;
    return mine ? A[i * lda + k] : A[k * lda + i];
}
template <typename T>
__global__ void __launch_bounds__(256) gf_symm_tiled(long long m, long long n, T alpha, const T *__restrict__ A,
                                                     long long lda, const T *__restrict__ B, long long ldb, T beta,
                                                     T *C, long long ldc, int right, int upper)
{
    __shared__ T sl[GF_SY_K][GF_SY_TILE + 1]; /* the left operand's 64 rows x 16, transposed */
    __shared__ T sr[GF_SY_K][GF_SY_TILE + 1]; /* the right operand's 16 rows x 64 */
    const long long i0 = (long long)blockIdx.y * GF_SY_TILE, j0 = (long long)blockIdx.x * GF_SY_TILE;
    const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
    const long long kd = right ? n : m; /* the inner index's extent */
    T acc[4][4];
    for (int r = 0; r < 4; r++)
        for (int q = 0; q < 4; q++)
            acc[r][q] = T(0);
    for (long long k0 = 0; k0 < kd; k0 += GF_SY_K) {
        for (int e = threadIdx.x; e < GF_SY_TILE * GF_SY_K; e += 256) {
            const int ii = e / GF_SY_K, kk = e % GF_SY_K;
            const long long i = i0 + ii, k = k0 + kk;
            sl[kk][ii] = i < m && k < kd ? (right ? B[i * ldb + k] : gf_sym_at(A, lda, i, k, upper)) : T(0);
        }
        for (int e = threadIdx.x; e < GF_SY_K * GF_SY_TILE; e += 256) {
            const int kk = e / GF_SY_TILE, jj = e % GF_SY_TILE;
            const long long k = k0 + kk, j = j0 + jj;
            sr[kk][jj] = k < kd && j < n ? (right ? gf_sym_at(A, lda, k, j, upper) : B[k * ldb + j]) : T(0);
        }
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < GF_SY_K; kk++) {
            T a[4], b[4];
            for (int r = 0; r < 4; r++)
                a[r] = sl[kk][ty + 16 * r];
            for (int q = 0; q < 4; q++)
                b[q] = sr[kk][tx + 16 * q];
            for (int r = 0; r < 4; r++)
                for (int q = 0; q < 4; q++)
                    acc[r][q] += a[r] * b[q];
        }
        __syncthreads();
    }
    for (int r = 0; r < 4; r++)
        for (int q = 0; q < 4; q++) {
            const long long i = i0 + ty + 16 * r, j = j0 + tx + 16 * q;
            if (i < m && j < n)
                C[i * ldc + j] = beta * C[i * ldc + j] + alpha * acc[r][q];
        }
}
/* Its grid: a block per 64 x 64 tile of C (y at most 65535 tiles: 4M rows). */
GF_UNUSED static inline dim3 gf_symm_grid(long long m, long long n)
{
    return dim3((unsigned)((n + GF_SY_TILE - 1) / GF_SY_TILE), (unsigned)((m + GF_SY_TILE - 1) / GF_SY_TILE));
}

/* Whether cuBLAS can take a matrix product the launcher recognised: int
 * sizes and row strides, each stride at least the row it strides over,
 * nothing empty (the kernel handles the rest). */
GF_UNUSED static inline bool gf_gemm_fits(long long m, long long n, long long k, long long lda, long long ldb,
                                          long long ldc, int ta, int tb)
{
    const long long big = 2147483647LL;
    return m > 0 && n > 0 && k > 0 && m <= big && n <= big && k <= big && lda <= big && ldb <= big &&
           ldc <= big && lda >= (ta ? m : k) && ldb >= (tb ? k : n) && ldc >= n;
}
