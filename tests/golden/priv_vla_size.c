// A scalar that sizes a temporary, then reused in a loop that writes it
// before reading it in every iteration: the loop gets its own copy, and the
// temporary's declaration still reads the first one (its size is a use of
// it, like any other: a pass that missed it moved the declaration into the
// loop and left the size naming a variable no longer declared there).
#include <gpufuse.h>

GPUFUSE void weights(int n, const float x[n], float y[n])
{
    int m = n;
    float t[m];
    for (int i = 0; i < n; i++)
        t[i] = x[i] * 2.0f;
    for (int i = 0; i < n; i++) {
        m = i % 3;
        y[i] = t[i] * m;
    }
}

// CHECK-LABEL: region weights
// CHECK: S0: decl int m = n
// CHECK-NEXT: S1: decl float t[m]
// CHECK-NEXT: for i in [0, n) step 1 ; line 12, parallel
// CHECK-NEXT: S2: t[i] = (x[i] * 2.0f)
// CHECK-NEXT: for i_1 in [0, n) step 1 ; line 14, parallel
// CHECK-NEXT: block
// CHECK-NEXT: decl int m_1
// CHECK-NEXT: S3: m_1 = (i_1 % 3)
// CHECK-NEXT: S4: y[i_1] = (t[i_1] * m_1)
// REPORT: region weights
// REPORT: scalar 'm' is private to each iteration of loop 'i' (line 14; isl: every value read is written earlier in the same iteration): declared inside the loop
