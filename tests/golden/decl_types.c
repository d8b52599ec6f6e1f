// The types a kernel and its helpers use are rebuilt from the AST (decls.c):
// each once, in definition order, with the C compiler's layout pinned by a
// static_assert; never the source's headers.  `typedef struct P {...} P;` and
// `typedef struct {...} Q;` were emitted twice / as a stray declaration.
#include <gpufuse.h>
#include <stdint.h>

typedef struct P { float x, y; } P;
typedef struct { float m; int k; } Q;
typedef union { float f; uint32_t u; } bits;
struct wrap { struct { short a, b; } in; union { float g; int h; }; Q q; struct wrap *next; };
enum mode { ADD, MUL = 4 };
typedef enum { LO = -2, HI = 2 } level;
typedef float real;
static const real HALF = 0.5f;
static const float COEF[4] = {0.25f, 0.5f, 1.0f, 2.0f};
static const Q Q0 = {.m = 1.5f, .k = 2};

static real apply(real v, enum mode m)
{
    level l = HI;
    enum mode other = ADD;
    return m == MUL ? v * l : v + LO + (float)other;
}

static float qsum(Q q)
{
    struct wrap w;
    w.q = q;
    w.in.a = 1;
    w.g = HALF;
    w.next = 0;
    return w.q.m + (float)w.q.k + w.in.a + w.g + COEF[q.k & 3] + Q0.m;
}

GPUFUSE void move(int n, P *p, const Q *q, bits *b)
{
    for (int i = 0; i < n; i++) {
        p[i].x = apply(p[i].x, MUL) + qsum(q[i]);
        p[i].y = p[i].y + (float)q[i].k;
        b[i].u = b[i].u ^ 1u;
    }
}

// CHECK-LABEL: region move
// CHECK: param struct P p[] inout
// CHECK: param Q q[] in
// CHECK: param bits b[] inout
// CHECK: for i in [0, n) step 1 ; line 38, parallel
// CHECK: S0: p[i].x = (apply(p[i].x, 4) + qsum(q[i]))

// CU-LABEL: ---- types, constants and helpers of decl_types.c, from its syntax tree ----
// CU-NOT: #include "
// CU-NOT: typedef struct P
// CU: struct P;
// CU-NEXT: struct gf_anon_1;
// CU-NEXT: struct wrap;
// CU-NEXT: /* struct P: decl_types.c:8 */
// CU-NEXT: struct P {
// CU-NEXT:     float x;
// CU-NEXT:     float y;
// CU-NEXT: };
// CU-NEXT: static_assert(sizeof(struct P) == 8 && alignof(struct P) == 4 &&
// CU-NEXT:               offsetof(struct P, x) == 0 &&
// CU-NEXT:               offsetof(struct P, y) == 4,
// CU-NEXT:               "gpufuse: struct P (decl_types.c:8) is laid out differently
// CU-NEXT: /* Q: decl_types.c:9 */
// CU-NEXT: typedef struct {
// CU-NEXT:     float m;
// CU-NEXT:     int k;
// CU-NEXT: } Q;
// CU-NEXT: static_assert(sizeof(Q) == 8 && alignof(Q) == 4 &&
// CU: /* bits: decl_types.c:10 */
// CU-NEXT: typedef union {
// CU-NEXT:     float f;
// CU-NEXT:     unsigned int u;
// CU-NEXT: } bits;
// CU: /* real: decl_types.c:14 */
// CU-NEXT: typedef float real;
// CU-NEXT: /* level: decl_types.c:13 */
// CU-NEXT: typedef int level;
// CU-NEXT: /* enum level: decl_types.c:13 */
// CU-NEXT: GF_UNUSED static constexpr int LO = -2;
// CU-NEXT: GF_UNUSED static constexpr int HI = 2;
// CU-NEXT: /* enum mode: decl_types.c:12 */
// CU-NEXT: GF_UNUSED static constexpr int ADD = 0;
// CU-NEXT: GF_UNUSED static constexpr int MUL = 4;
// CU-NEXT: /* apply: decl_types.c:19 */
// CU-NEXT: namespace gf_c {
// CU-NEXT: __host__ __device__ static real apply(real v, unsigned int m) {
// CU-NEXT:     level l = HI;
// CU-NEXT:     unsigned int other = ADD;
// CU-NEXT:     return m == MUL ? v * l : v + LO + (float)other;
// CU-NEXT: }
// CU: /* struct gf_anon_1: decl_types.c:11 */
// CU-NEXT: struct gf_anon_1 {
// CU-NEXT:     short a;
// CU-NEXT:     short b;
// CU-NEXT: };
// CU: /* struct wrap: decl_types.c:11 */
// CU-NEXT: struct wrap {
// CU-NEXT:     struct gf_anon_1 in;
// CU-NEXT:     union {
// CU-NEXT:         float g;
// CU-NEXT:         int h;
// CU-NEXT:     };
// CU-NEXT:     Q q;
// CU-NEXT:     struct wrap *next;
// CU-NEXT: };
// CU-NEXT: static_assert(sizeof(struct wrap) == 24 && alignof(struct wrap) == 8 &&
// CU-NEXT:               offsetof(struct wrap, in) == 0 &&
// CU-NEXT:               offsetof(struct wrap, g) == 4 &&
// CU-NEXT:               offsetof(struct wrap, h) == 4 &&
// CU-NEXT:               offsetof(struct wrap, q) == 8 &&
// CU-NEXT:               offsetof(struct wrap, next) == 16,
// CU: /* HALF: decl_types.c:15 */
// CU-NEXT: GF_UNUSED static constexpr float HALF = 0x1p-1f;
// CU-NEXT: /* gf_c_COEF: decl_types.c:16 */
// CU-NEXT: GF_UNUSED static const float gf_ch_COEF[4] = {0.25F, 0.5F, 1.F, 2.F};
// CU-NEXT: GF_UNUSED static __device__ const float gf_cd_COEF[4] = {0.25F, 0.5F, 1.F, 2.F};
// CU-NEXT: #if defined(__CUDA_ARCH__)
// CU-NEXT: #define gf_c_COEF gf_cd_COEF
// CU-NEXT: #else
// CU-NEXT: #define gf_c_COEF gf_ch_COEF
// CU-NEXT: #endif
// CU-NEXT: /* gf_c_Q0: decl_types.c:17 */
// CU-NEXT: GF_UNUSED static const Q gf_ch_Q0 = {.m = 1.5F, .k = 2};
// CU-NEXT: GF_UNUSED static __device__ const Q gf_cd_Q0 = {.m = 1.5F, .k = 2};
// CU: /* qsum: decl_types.c:26 */
// CU-NEXT: namespace gf_c {
// CU-NEXT: __host__ __device__ static float qsum(Q q) {
// CU:     return w.q.m + (float)w.q.k + w.in.a + w.g + gf_c_COEF[q.k & 3] + gf_c_Q0.m;
// CU-NOT: typedef struct P
// CU-NOT: } Q;
// CU-NOT: struct P {
// CU: extern "C" void move(int n, struct P *p, const Q *q, bits *b)
