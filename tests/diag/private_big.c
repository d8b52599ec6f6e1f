#include <gpufuse.h>

GPUFUSE void big(int n, const float x[n][2048], float y[n][2048])
{
    for (int i = 0; i < n; i++) {
        float t[2048]; // expected-warning {{local array 't' declared inside a loop has 2048 elements; an array private to each iteration lives in each GPU thread's registers and local memory, which allows at most 1024 elements}} [-Wgpufuse-temp]
        for (int j = 0; j < 2048; j++)
            t[j] = x[i][j] * 2.0f;
        for (int j = 0; j < 2048; j++)
            y[i][j] = t[2047 - j];
    }
}

GPUFUSE void big2d(int n, const float x[n][64], float y[n][64])
{
    for (int i = 0; i < n; i++) {
        float t[64][32]; // expected-warning {{local array 't' declared inside a loop has 2048 elements}} [-Wgpufuse-temp]
        for (int j = 0; j < 64; j++)
            t[j][0] = x[i][j];
        for (int j = 0; j < 64; j++)
            y[i][j] = t[63 - j][0];
    }
}

GPUFUSE void vla(int n, int m, const float x[n][m], float y[n][m])
{
    for (int i = 0; i < n; i++) {
        float t[m]; // expected-warning {{local array 't' has a variable size and is declared inside a loop; an array private to each iteration needs a constant size (at most 1024 elements)}} [-Wgpufuse-temp]
        for (int j = 0; j < m; j++)
            t[j] = x[i][j];
        for (int j = 0; j < m; j++)
            y[i][j] = t[m - 1 - j];
    }
}
