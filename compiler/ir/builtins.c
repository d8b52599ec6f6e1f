/* builtins.c - the library builtins a region may call (gf_sgemm, gf_dgemm,
 * gf_gemm_epilogue, gf_fft_*): each argument's role, and the library that
 * runs it.  The front end, the dependence model, the plan and the back ends
 * all ask here. */
#include "gfc.h"

#include <string.h>

/* Roles, one letter per argument (gfc.h, lib_builtin_roles). */
static const char *const builtins[][2] = {
    /* gf_sgemm(ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc) */
    {"gf_sgemm", "OOSSSSRSRSSWS"},
    {"gf_dgemm", "OOSSSSRSRSSWS"},
    /* gf_gemm_epilogue(m, n, k, A, B, bias, C, flags) */
    {"gf_gemm_epilogue", "SSSRRNWS"},
    /* gf_fft_c2c_n(rank, n0, n1, n2, batch, in, out, direction, type): in may be out */
    {"gf_fft_c2c_n", "SSSSSRWSD"},
    /* gf_fft_r2c_n(rank, n0, n1, n2, batch, in, out, type) */
    {"gf_fft_r2c_n", "SSSSSRWD"},
};

const char *lib_builtin_library(const char *name)
{
    return !strncmp(name, "gf_fft", 6) ? "cuFFT" : !strcmp(name, "gf_gemm_epilogue") ? "cuBLASLt" : "cuBLAS";
}

const char *lib_builtin_roles(const char *name)
{
    for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++)
        if (!strcmp(name, builtins[i][0]))
            return builtins[i][1];
    return NULL;
}

/* GCC's bit builtins a kernel may call: their names in generated code
 * (templates/common.h: the builtin on the host, CUDA's intrinsic on the
 * device). */
static const char *const bits[][2] = {
    {"__builtin_popcount", "gf_popcount"}, {"__builtin_popcountl", "gf_popcountl"},
    {"__builtin_popcountll", "gf_popcountll"}, {"__builtin_clz", "gf_clz"}, {"__builtin_clzl", "gf_clzl"},
    {"__builtin_clzll", "gf_clzll"}, {"__builtin_ctz", "gf_ctz"}, {"__builtin_ctzl", "gf_ctzl"},
    {"__builtin_ctzll", "gf_ctzll"}, {"__builtin_ffs", "gf_ffs"}, {"__builtin_ffsl", "gf_ffsl"},
    {"__builtin_ffsll", "gf_ffsll"}, {"__builtin_parity", "gf_parity"}, {"__builtin_parityl", "gf_parityl"},
    {"__builtin_parityll", "gf_parityll"},
};

const char *builtin_bits(const char *name)
{
    for (size_t i = 0; i < sizeof bits / sizeof bits[0]; i++)
        if (!strcmp(name, bits[i][0]))
            return bits[i][1];
    return NULL;
}
