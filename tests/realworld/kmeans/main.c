#include "rw.h"
#include "kernels.h"

int main(void)
{
    const int n = 5000;
    rw_seed(20);
    float (*pts)[DIM] = rw_alloc(n, sizeof *pts);
    float cent[K][DIM], sums[K][DIM];
    int *label = rw_alloc(n, sizeof(int)), counts[K];
    /* clusters around K centres */
    for (int i = 0; i < n; i++)
        for (int d = 0; d < DIM; d++)
            pts[i][d] = (float)((i % K) * 2.0 + d * 0.5 + rw_int(-24, 24) / 16.0);
    for (int c = 0; c < K; c++)
        for (int d = 0; d < DIM; d++)
            cent[c][d] = pts[c * 37][d];
    assign(n, (const float (*)[DIM])pts, (const float (*)[DIM])cent, label);
    /* coordinates are multiples of 1/16: every distance is exact in float
       (also with a fused multiply-add), so a tie is a tie everywhere */
    rw_out_i("assign.label", label, n, 0);
    accumulate(n, (const float (*)[DIM])pts, label, sums, counts);
    rw_out_i("accumulate.counts", counts, K, 0);
    rw_out_f("accumulate.sums", &sums[0][0], K * DIM, 1e-4, 1e-2);
    update_centroids((const float (*)[DIM])sums, counts, cent);
    rw_out_f("update_centroids.cent", &cent[0][0], K * DIM, 1e-4, 1e-5);
    rw_out_scalar("inertia.return", inertia(n, (const float (*)[DIM])pts, (const float (*)[DIM])cent, label),
                  1e-5, 1e-6);
    return 0;
}
