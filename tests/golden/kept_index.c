// A loop index read after its loop (`int k; for (k = 0; ...) { ... break; }
// img[i] = k;`): the reads after the loop read a local of their own, set
// before the loop to the index's value after a full run and to the index at
// each break (parse.c kept_index).
#include <gpufuse.h>

// escape-time iteration: the count where the orbit left the disc
GPUFUSE void julia(int w, int h, double cr, double ci, unsigned char img[h][w])
{
    for (int py = 0; py < h; py++)
        for (int px = 0; px < w; px++) {
            double zr = -1.5 + 3.0 * px / w, zi = -1.0 + 2.0 * py / h;
            int k;
            for (k = 0; k < 200; k++) {
                double r2 = zr * zr, i2 = zi * zi;
                if (r2 + i2 > 4.0)
                    break;
                zi = 2.0 * zr * zi + ci;
                zr = r2 - i2 + cr;
            }
            img[py][px] = (unsigned char)(k < 200 ? k : 255);
        }
}
// CHECK-LABEL: region julia
// CHECK: S{{[0-9]+}}: decl int k_1 = ((0 < 200) ? (0 + (200 - 0)) : 0)
// CHECK: for k in [0, 200) step 1 until gf_brk
// CHECK: S{{[0-9]+}}: k_1 = k
// CHECK-NEXT: S{{[0-9]+}}: gf_brk = 1
// CHECK: img[py][px] = (unsigned char)((k_1 < 200) ? k_1 : 255)
// CU-LABEL: julia_k0
// CU: int k_1 = 0 < 200 ? 0 + (200 - 0) : 0;

// a step of 2 from 1: after a full run j is 1 + ceil((m - 1) / 2) * 2
GPUFUSE void first_neg(int n, int m, const float x[n][m], int where[n])
{
    for (int i = 0; i < n; i++) {
        int j;
        for (j = 1; j < m; j += 2)
            if (x[i][j] < 0)
                break;
        where[i] = j;
    }
}
// CHECK-LABEL: region first_neg
// CHECK: decl int j_1 = ((1 < m) ? (1 + ((((m - 1) + 1) / 2) * 2)) : 1)

// no break, an empty body: j is max(i, m) after it
GPUFUSE void count_to(int n, int m, int out[n])
{
    for (int i = 0; i < n; i++) {
        int j;
        for (j = i; j < m; j++)
            ;
        out[i] = j;
    }
}

// CHECK-LABEL: region count_to
// CHECK: decl int j_1 = ((i < m) ? (i + (m - i)) : i)
