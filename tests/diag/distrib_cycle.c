#include <gpufuse.h>

// Distribution cannot help: the running sum's statement depends on its own
// earlier iterations and has no parallel loop inside, so splitting off the
// element-wise statement would gain nothing.  The loop stays as written and
// the function keeps its CPU body, with the warning it always had.
GPUFUSE void scan_and_scale(int n, const float a[n], float b[n], float c[n])
{
    for (int i = 1; i < n; i++) { // expected-warning {{loop carries a dependence on 'b' (an iteration uses what an earlier one wrote); no loop of this nest is parallel, so 'scan_and_scale' keeps its CPU body}} [-Wgpufuse-dependence]
        c[i] = a[i] * 2.0f;
        b[i] = b[i - 1] + c[i];
    }
}

// Two statements that feed each other across iterations: one component,
// nothing to distribute.
GPUFUSE void pingpong(int n, float a[n], float b[n])
{
    for (int i = 1; i < n; i++) { // expected-warning {{loop carries a dependence on}} [-Wgpufuse-dependence]
        a[i] = b[i - 1] + 1.0f;
        b[i] = a[i] * 0.5f;
    }
}
