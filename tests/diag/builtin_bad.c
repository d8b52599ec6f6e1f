// Library builtins in places a launcher cannot call them from.
#include <gpufuse.h>

GPUFUSE void cond_call(int n, int go, const float A[n][n], const float B[n][n], float C[n][n])
{
    if (go)
        gf_sgemm(GF_OP_N, GF_OP_N, n, n, n, 1.0f, &A[0][0], n, &B[0][0], n, 0.0f, &C[0][0], n); // expected-warning {{library call 'gf_sgemm' under a condition}} [-Wgpufuse-call]
    for (int i = 0; i < n; i++)
        C[i][0] = 1.0f;
}

GPUFUSE void offset_arg(int n, const float A[n][n], const float B[n][n], float C[n][n])
{
    gf_sgemm(GF_OP_N, GF_OP_N, n - 1, n, n, 1.0f, &A[1][0], n, &B[0][0], n, 0.0f, &C[0][0], n); // expected-warning {{argument 7 of 'gf_sgemm' must be an array parameter or temporary of this function, from its first element}} [-Wgpufuse-call]
    for (int i = 0; i < n; i++)
        C[i][0] = 1.0f;
}

GPUFUSE void const_out(int n, const float A[n][n], const float B[n][n], const float C[n][n], float D[n])
{
    gf_sgemm(GF_OP_N, GF_OP_N, n, n, n, 1.0f, &A[0][0], n, &B[0][0], n, 0.0f, (float *)C, n); // expected-warning {{'gf_sgemm' writes its argument 12, but 'C' points to const}} [-Wgpufuse-const]
    for (int i = 0; i < n; i++)
        D[i] = 1.0f;
}

GPUFUSE void no_size(int n, const float *A, const float *B, float *C) // expected-warning {{a library call takes 'A' whole, and its size is not declared}} [-Wgpufuse-extent]
{
    gf_sgemm(GF_OP_N, GF_OP_N, n, n, n, 1.0f, A, n, B, n, 0.0f, C, n);
    for (int i = 0; i < n; i++)
        C[i] = C[i] * 2.0f;
}
