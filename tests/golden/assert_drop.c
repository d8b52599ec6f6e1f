// assert() is not checked by the generated code (as under NDEBUG; the C body
// checks it), _Static_assert is checked by the compiler, (void)x does nothing.
#include <assert.h>
#include <gpufuse.h>

GPUFUSE void scale(int n, float s, const float *restrict x, float *restrict y)
{
    _Static_assert(sizeof(float) == 4, "float is 32 bits");
    assert(n >= 0);
    (void)s;
    for (int i = 0; i < n; i++) {
        assert(x[i] == x[i]);
        y[i] = 2.0f * x[i];
        (void)(x[i] + 1.0f);
    }
}

// CHECK-LABEL: region scale
// CHECK-NEXT: param int n
// CHECK: block
// CHECK-NEXT: for i in [0, n) step 1 ; line 11, parallel
// CHECK: S0: y[i] = (2.0f * x[i])
// REPORT: line 9: assert() is not checked in the generated code (as under NDEBUG); the C body checks it
// REPORT-NOT: line 10:
// REPORT: line 12: assert() is not checked
// REPORT-NOT: line 14:
