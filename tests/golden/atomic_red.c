// --atomic-reductions: a sum, an xor and a float sum finish with atomics into
// the zeroed result (no partials, no ticket, no last-block pass); a max has
// no all-zero identity, so its kernel keeps the deterministic finish.
#include <gpufuse.h>
#include <math.h>

GPUFUSE float dot_plus(int n, const float *restrict a, const float *restrict b, unsigned *restrict hash)
{
    float s = 1.5f;
    unsigned h = 0;
    for (int i = 0; i < n; i++) {
        s += a[i] * b[i];
        h ^= (unsigned)i * 2654435761u;
    }
    *hash = h;
    return s;
}

GPUFUSE float peak(int n, const float *restrict a)
{
    float m = -INFINITY;
    for (int i = 0; i < n; i++)
        m = fmaxf(m, a[i]);
    return m;
}

// FLAGS: --atomic-reductions
// CHECK-LABEL: region dot_plus
// CHECK: reduction
// CU: --atomic-reductions
// CU-LABEL: __global__ void __launch_bounds__(GF_THREADS) dot_plus_k0_v4(
// CU-SAME: float s_init, float *gf_out_s, unsigned int h_init, unsigned int *gf_out_h, GF_I gf_n0)
// CU: s = gf_block_reduce(s, gf_add<float>());
// CU-NEXT: if (threadIdx.x == 0)
// CU-NEXT: gf_atomic_add(gf_out_s, gf_block_id() == 0 ? gf_add<float>()(s_init, s) : s);
// CU: gf_atomic_xor(gf_out_h, gf_block_id() == 0 ? gf_bxor<unsigned int>()(h_init, h) : h);
// CU-NOT: gf_last_block
// CU-LABEL: extern "C" float dot_plus(
// CU-NOT: ticket
// CU: cudaMemsetAsync(gf_out_s, 0, sizeof *gf_out_s, gf_s)
// CU: cudaMemsetAsync(gf_out_h, 0, sizeof *gf_out_h, gf_s)
// CU-LABEL: __global__ void __launch_bounds__(GF_THREADS) peak_k0_v4(
// CU-SAME: float *gf_part_m, float *gf_out_m, unsigned *gf_ticket
// CU: gf_last_block(gf_ticket)
// CU-LABEL: extern "C" float peak(
// CU: peak_k0 ticket
