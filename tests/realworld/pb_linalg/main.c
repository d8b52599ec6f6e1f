#include "rw.h"
#include "kernels.h"

static double tmp2[NI][NJ], A2[NI][NK], B2[NK][NJ], C2[NJ][NL], D2[NI][NL];
static double A[N][N], B[N][N], Am[M][N], As[N][M], x[N], y[N], tmp[N], x1[N], x2[N], y1_[N], y2_[N];

int main(void)
{
    rw_seed(43);
    rw_fill_d(&A2[0][0], NI * NK, 0, 1);
    rw_fill_d(&B2[0][0], NK * NJ, 0, 1);
    rw_fill_d(&C2[0][0], NJ * NL, 0, 1);
    rw_fill_d(&D2[0][0], NI * NL, 0, 1);
    kernel_two_mm(NI, NJ, NK, NL, 1.5, 1.2, tmp2, A2, B2, C2, D2);
    rw_out_d("kernel_two_mm.tmp", &tmp2[0][0], NI * NJ, 1e-12, 1e-12);
    rw_out_d("kernel_two_mm.D", &D2[0][0], NI * NL, 1e-12, 1e-12);
    rw_fill_d(&Am[0][0], M * N, -1, 1);
    rw_fill_d(x, N, -1, 1);
    kernel_atax(M, N, Am, x, y, tmp);
    rw_out_d("kernel_atax.y", y, N, 1e-11, 1e-12);
    rw_out_d("kernel_atax.tmp", tmp, M, 1e-12, 1e-12);
    rw_fill_d(&A[0][0], N * N, -1, 1);
    rw_fill_d(&B[0][0], N * N, -1, 1);
    kernel_gesummv(N, 1.5, 1.2, A, B, tmp, x, y);
    rw_out_d("kernel_gesummv.tmp", tmp, N, 1e-12, 1e-12);
    rw_out_d("kernel_gesummv.y", y, N, 1e-12, 1e-12);
    rw_fill_d(x1, N, -1, 1);
    rw_fill_d(x2, N, -1, 1);
    rw_fill_d(y1_, N, -1, 1);
    rw_fill_d(y2_, N, -1, 1);
    kernel_mvt(N, x1, x2, y1_, y2_, A);
    rw_out_d("kernel_mvt.x1", x1, N, 1e-12, 1e-12);
    rw_out_d("kernel_mvt.x2", x2, N, 1e-12, 1e-12);
    rw_fill_d(&As[0][0], N * M, -1, 1);
    kernel_syrk(N, M, 1.5, 1.2, A, As);
    rw_out_d("kernel_syrk.C", &A[0][0], N * N, 1e-12, 1e-12);
    return 0;
}
