// Every C arithmetic scalar type as a parameter.
#include <gpufuse.h>
#include <stdint.h>

GPUFUSE void scalar_types(int n, unsigned char uc, signed char sc, short s, unsigned short us,
                          unsigned int ui, long l, unsigned long ul, long long ll, unsigned long long ull,
                          int64_t i64, uint32_t u32, float f, double d, _Bool b,
                          double *restrict out)
{
    for (int i = 0; i < n; i++)
        out[i] = uc + sc + s + us + (double)ui + (double)l + (double)ul + (double)ll + (double)ull +
                 (double)i64 + u32 + f + d + b + i;
}

// CHECK-LABEL: region scalar_types
// CHECK-NEXT: param int n
// CHECK-NEXT: param unsigned char uc
// CHECK-NEXT: param signed char sc
// CHECK-NEXT: param short s
// CHECK-NEXT: param unsigned short us
// CHECK-NEXT: param unsigned int ui
// CHECK-NEXT: param long l
// CHECK-NEXT: param unsigned long ul
// CHECK-NEXT: param long long ll
// CHECK-NEXT: param unsigned long long ull
// CHECK-NEXT: param long i64
// CHECK-NEXT: param unsigned int u32
// CHECK-NEXT: param float f
// CHECK-NEXT: param double d
// CHECK-NEXT: param _Bool b
// CHECK-NEXT: param double out[] out restrict
// CHECK: for i in [0, n) step 1 ; line 10, parallel
