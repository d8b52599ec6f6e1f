// Three parallel dimensions over a 3-D VLA.
#include <gpufuse.h>

GPUFUSE void scale3d(int nx, int ny, int nz, float s, float v[nx][ny][nz])
{
    for (int i = 0; i < nx; i++)
        for (int j = 0; j < ny; j++)
            for (int k = 0; k < nz; k++)
                v[i][j][k] = s * v[i][j][k] + 1.0f;
}

// CHECK-LABEL: region scale3d
// CHECK: param float v[nx][ny][nz] inout
// CHECK: for i in [0, nx) step 1 ; line 6, parallel
// CHECK-NEXT: for j in [0, ny) step 1 ; line 7, parallel
// CHECK-NEXT: for k in [0, nz) step 1 ; line 8, parallel
// REPORT: kernel scale3d_k0 [map, 3-D]
