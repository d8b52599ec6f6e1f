/* Spellings of the hand-written kernel marker that gpufuse refuses, see
 * docs/cuda-kernels.md: each function keeps its C body; the well-spelt one at the end gets a launcher. */
#include <gpufuse.h>

#define ROWS_PER_BLOCK 4

GPUFUSE_CUDA_GRID(k_grid, ((m + 255) / 256), (256)) void unknown_param(int n, float *restrict x) // expected-warning {{'m' is not a parameter of 'unknown_param', in the grid of the launch rule}} [-Wgpufuse-cuda]
{
    for (int i = 0; i < n; i++)
        x[i] = 2.0f * x[i];
}

GPUFUSE_CUDA(my-kernel) void not_ident(int n, float *restrict x) // expected-warning {{the kernel's name 'my-kernel' is not an identifier}} [-Wgpufuse-cuda]
{
    for (int i = 0; i < n; i++)
        x[i] = 2.0f * x[i];
}

GPUFUSE_CUDA_THREADS(k_arr, x) void array_count(int n, float *restrict x) // expected-warning {{'x' is an array parameter; a launch rule takes the scalar parameters}} [-Wgpufuse-cuda]
{
    for (int i = 0; i < n; i++)
        x[i] = 2.0f * x[i];
}

GPUFUSE_CUDA_THREADS(k_syntax, n +) void bad_syntax(int n, float *restrict x) // expected-warning {{expected an expression, in the thread count of the launch rule 'n +'}} [-Wgpufuse-cuda]
{
    for (int i = 0; i < n; i++)
        x[i] = 2.0f * x[i];
}

GPUFUSE_CUDA_THREADS(k_assign, n = 4) void assigns(int n, float *restrict x) // expected-warning {{unexpected '='}} [-Wgpufuse-cuda]
{
    for (int i = 0; i < n; i++)
        x[i] = 2.0f * x[i];
}

GPUFUSE_CUDA_GRID(k_dims, (n, n, n, n), (1)) void four_dims(int n, float *restrict x) // expected-warning {{has more than 3 dimensions}} [-Wgpufuse-cuda]
{
    for (int i = 0; i < n; i++)
        x[i] = 2.0f * x[i];
}

GPUFUSE_CUDA(same_name) void same_name(int n, float *restrict x) // expected-warning {{the kernel cannot be named 'same_name' (the marked function 'same_name' has that name)}} [-Wgpufuse-cuda]
{
    for (int i = 0; i < n; i++)
        x[i] = 2.0f * x[i];
}

GPUFUSE_CUDA(k_ret) float returns(int n, const float *restrict x) // expected-warning {{must return void}} [-Wgpufuse-cuda]
{
    float s = 0;
    for (int i = 0; i < n; i++)
        s += x[i];
    return s;
}

GPUFUSE_CUDA(k_nowrite) void writes_nothing(int n, const float *restrict x) // expected-warning {{'writes_nothing' writes no array, so the default launch rule}} [-Wgpufuse-cuda]
{
    float s = 0;
    for (int i = 0; i < n; i++)
        s += x[i];
    (void)s;
}

GPUFUSE_CUDA_THREADS(n, n) void param_name(int n, float *restrict x) // expected-warning {{the kernel cannot be named 'n' (a parameter of 'param_name' has that name)}} [-Wgpufuse-cuda]
{
    for (int i = 0; i < n; i++)
        x[i] = 2.0f * x[i];
}

GPUFUSE_CUDA(printf) void header_name(int n, float *restrict x) // expected-warning {{the kernel cannot be named 'printf' (a C++ keyword, or a name the generated file's headers declare)}} [-Wgpufuse-cuda]
{
    for (int i = 0; i < n; i++)
        x[i] = 2.0f * x[i];
}

/* one kernel for two functions: the same parameters, or refused */
GPUFUSE_CUDA(k_shared) void shared_a(int n, float *restrict x)
{
    for (int i = 0; i < n; i++)
        x[i] = 2.0f * x[i];
}

GPUFUSE_CUDA(k_shared) void shared_b(int m, float *restrict y)
{
    for (int i = 0; i < m; i++)
        y[i] = 2.0f * y[i];
}

GPUFUSE_CUDA(k_shared) void shared_c(int n, double *restrict x) // expected-warning {{the kernel cannot be named 'k_shared' ('shared_a' names it with other parameters)}} [-Wgpufuse-cuda]
{
    for (int i = 0; i < n; i++)
        x[i] = 2.0 * x[i];
}

/* a macro in the rule is expanded; the dependence of the C body's loop does not matter */
GPUFUSE_CUDA_GRID(k_ok, ((n + ROWS_PER_BLOCK - 1) / ROWS_PER_BLOCK), (32, ROWS_PER_BLOCK)) void accepted(int n, float *restrict x)
{
    for (int i = 1; i < n; i++)
        x[i] += x[i - 1];
}
