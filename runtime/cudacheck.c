/* cudacheck.c - the body of GF_CUDA, the one checking macro for CUDA calls:
 * "cudaXxx failed: <CUDA's message> (in <function> at <file>:<line>)". */
#include "rt.h"

#include <cuda_runtime_api.h>
#include <stdio.h>
#include <string.h>

gf_status gf_cuda_check(int err, const char *expr, const char *func, const char *file, int line)
{
    if (err == cudaSuccess)
        return GF_SUCCESS;
    char name[64];
    size_t n = strcspn(expr, "( ");
    if (n >= sizeof name)
        n = sizeof name - 1;
    memcpy(name, expr, n);
    name[n] = 0;
    char where[320];
    gf_where(where, sizeof where, func, file, line);
    cudaGetLastError(); /* clear non-sticky errors so the next call starts clean */
    gf_status s = err == cudaErrorMemoryAllocation ? GF_ERROR_OUT_OF_MEMORY : GF_ERROR_CUDA;
    return gf_fail(s, "%s failed: %s %s", name, cudaGetErrorString((cudaError_t)err), where);
}
