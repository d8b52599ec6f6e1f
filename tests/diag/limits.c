#include <gpufuse.h>

/* The front end's limits: each is checked and named (docs/language.md). */

GPUFUSE void deep_loops(int n, float *restrict x)
{
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++)
            for (int c = 0; c < n; c++)
                for (int d = 0; d < n; d++)
                    for (int e = 0; e < n; e++)
                        for (int f = 0; f < n; f++)
                            for (int g = 0; g < n; g++)
                                for (int h = 0; h < n; h++)
                                    for (int i = 0; i < n; i++)
                                        for (int j = 0; j < n; j++)
                                            for (int k = 0; k < n; k++)
                                                for (int l = 0; l < n; l++)
                                                    for (int m = 0; m < n; m++)
                                                        for (int r = 0; r < n; r++)
                                                            for (int o = 0; o < n; o++)
                                                                for (int p = 0; p < n; p++)
                                                                    for (int q = 0; q < n; q++) // expected-warning {{too many nested loops (limit is 16)}} [-Wgpufuse-size]
                                                                        x[a] += (float)(q + r);
}

GPUFUSE void rank9(int n, float a[n][2][2][2][2][2][2][2][2]) // expected-warning {{too many dimensions of an array (limit is 8)}} [-Wgpufuse-size]
{
    for (int i = 0; i < n; i++)
        a[i][0][0][0][0][0][0][0][0] = 0.0f;
}

static float h9(float v) { return v + 9.0f; }
static float h8(float v) { return h9(v) + 8.0f; }
static float h7(float v) { return h8(v) + 7.0f; }
static float h6(float v) { return h7(v) + 6.0f; }
static float h5(float v) { return h6(v) + 5.0f; }
static float h4(float v) { return h5(v) + 4.0f; }
static float h3(float v) { return h4(v) + 3.0f; }
static float h2(float v) { return h3(v) + 2.0f; }
static float h1(float v) { return h2(v) + 1.0f; }

GPUFUSE void helpers(int n, float *restrict x)
{
    for (int i = 0; i < n; i++)
        x[i] = h1(x[i]); // expected-warning {{too many nested helper calls (limit is 8)}} [-Wgpufuse-size]
}
