// A flattened access whose inner part can leave its row (j + 1 reaches m at
// the end of a row) is not a 2-D access: 'a' stays 1-D with a subscript that
// is not affine, so isl cannot bound what the call reads from it and the
// launcher could not stage it.  Declaring its size (const float a[n * m + 1])
// would let it run on the GPU.
#include <gpufuse.h>

GPUFUSE void shift(int n, int m, const float *restrict a, float *restrict b)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            b[i * m + j] = a[i * m + j + 1] - a[i * m + j];
}

// CHECK-NOT: region shift
// WARN: flat_shift.c:8:56: warning: cannot tell how much of 'a' the loops touch {{.*}} 'shift' keeps its CPU body [-Wgpufuse-extent]
