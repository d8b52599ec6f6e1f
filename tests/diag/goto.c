#include <gpufuse.h>

GPUFUSE void jump(int n, float *restrict x)
{
    for (int i = 0; i < n; i++) {
        if (x[i] < 0.0f)
            goto done; // expected-warning {{'goto' and labels make the control flow irregular}} [-Wgpufuse-control]
        x[i] = 2.0f * x[i];
    }
done:
    return;
}
