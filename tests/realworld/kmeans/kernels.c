/* kmeans: one Lloyd iteration in four functions */
#include <gpufuse.h>
#include <float.h>
#include "kernels.h"

static inline float dist2(const float *a, const float *b)
{
    float s = 0.0f;
    for (int d = 0; d < DIM; d++)
        s += (a[d] - b[d]) * (a[d] - b[d]);
    return s;
}

GPUFUSE void assign(int n, const float pts[][DIM], const float cent[K][DIM], int label[])
{
    for (int i = 0; i < n; i++) {
        int best = 0;
        float bd = FLT_MAX;
        for (int c = 0; c < K; c++) {
            float d = 0.0f;
            for (int k = 0; k < DIM; k++)
                d += (pts[i][k] - cent[c][k]) * (pts[i][k] - cent[c][k]);
            if (d < bd) {
                bd = d;
                best = c;
            }
        }
        label[i] = best;
    }
}

GPUFUSE void accumulate(int n, const float pts[][DIM], const int label[], float sums[K][DIM], int counts[K])
{
    for (int c = 0; c < K; c++) {
        counts[c] = 0;
        for (int d = 0; d < DIM; d++)
            sums[c][d] = 0.0f;
    }
    for (int i = 0; i < n; i++) {
        counts[label[i]] += 1;
        for (int d = 0; d < DIM; d++)
            sums[label[i]][d] += pts[i][d];
    }
}

GPUFUSE void update_centroids(const float sums[K][DIM], const int counts[K], float cent[K][DIM])
{
    for (int c = 0; c < K; c++)
        if (counts[c] > 0)
            for (int d = 0; d < DIM; d++)
                cent[c][d] = sums[c][d] / counts[c];
}

GPUFUSE double inertia(int n, const float pts[][DIM], const float cent[K][DIM], const int label[])
{
    double total = 0.0;
    for (int i = 0; i < n; i++)
        total += dist2(pts[i], cent[label[i]]);
    return total;
}
