/* main.c - calls the marked functions (now gpufuse's launchers: on the GPU,
 * or the fused CPU fallback without one) and checks them against the same
 * arithmetic written out here in plain C.  Exit status 1 on a mismatch. */
#include <gpufuse.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

void saxpy(int n, float a, const float *restrict x, float *restrict y);
double smooth_sum(int n, const float *restrict x, float *restrict out);

int main(void)
{
    int n = 1 << 20, bad = 0;
    float *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y), *out = malloc(n * sizeof *out);
    if (!x || !y || !out)
        return 2;
    for (int i = 0; i < n; i++) {
        x[i] = (float)((i % 1000) - 500) / 250.0f;
        y[i] = (float)(i % 7);
    }

    saxpy(n, 2.0f, x, y);
    for (int i = 0; i < n; i++) {
        float want = 2.0f * x[i] + (float)(i % 7);
        if (!(fabsf(y[i] - want) <= 1e-5f * fmaxf(1.0f, fabsf(want))))
            bad++;
    }

    double s = smooth_sum(n, x, out), want_s = 0.0;
    for (int i = 0; i < n; i++) {
        float want = 0.5f * sqrtf(x[i] * x[i] + 1.0f);
        want_s += want;
        if (!(fabsf(out[i] - want) <= 1e-5f * fmaxf(1.0f, want)))
            bad++;
    }
    if (!(fabs(s - want_s) <= 1e-6 * fabs(want_s)))
        bad++;

    printf("gpufuse %s, %s: saxpy and smooth_sum on %d elements: %s\n", GPUFUSE_VERSION_STRING,
           gf_have_device() ? "GPU" : "no GPU (CPU fallback)", n, bad ? "MISMATCH" : "ok");
    free(x); free(y); free(out);
    return bad ? 1 : 0;
}
