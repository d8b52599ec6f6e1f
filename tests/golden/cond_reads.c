// Arrays read only in an if condition are reads of every statement under it:
// 'mask' must be staged (its extent is the loop's range), and a condition
// that reads what an earlier iteration wrote carries a dependence.
#include <gpufuse.h>

GPUFUSE void pick(int n, const float *restrict mask, float *restrict y)
{
    for (int i = 0; i < n; i++) {
        if (mask[i] > 0.0f)
            y[i] = 1.0f;
        else
            y[i] = 2.0f;
    }
}

GPUFUSE void chain_flag(int n, float a[n])
{
    for (int i = 1; i < n; i++)
        if (a[i - 1] > 0.5f)
            a[i] = 0.0f;
}

// CHECK: region pick
// CHECK: for i in [0, n) step 1 {{.*}} parallel
// CHECK-NOT: region chain_flag
// WARN: cond_reads.c:18:5: warning: loop carries a dependence on 'a' {{.*}} [-Wgpufuse-dependence]
