// A marked function without parameters (issue 13, item 5): its launcher
// calls the host plan and the C body with no arguments.
#include <gpufuse.h>

GPUFUSE int triangle(void)
{
    int s = 0;
    for (int i = 0; i < 100; i++)
        s += i;
    return s;
}

// CHECK-LABEL: region triangle
// CHECK: for i in [0, 100) step 1 ; line 8, parallel reduction
// CU-LABEL: extern "C" int triangle(void)
// CU: return gf_host_triangle();
// CU: return gf_seq_triangle();
