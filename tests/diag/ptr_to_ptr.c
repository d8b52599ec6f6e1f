#include <gpufuse.h>

GPUFUSE void rows(int n, int m, float **a) // expected-warning {{parameter 'a' is a pointer to pointers}} [-Wgpufuse-pointer]
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            a[i][j] = 0.0f;
}
