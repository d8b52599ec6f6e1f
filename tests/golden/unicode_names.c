// Identifiers outside ASCII (valid C11, UTF-8 in the source): once printed
// into isl's text they made isl's parser fail and gpufuse abort.  The model
// is built through isl's API, so they are names like any other: the map is
// parallel and equal to the C body, the recurrence is refused.
#include <gpufuse.h>

GPUFUSE void échelle(int n, float facteur, float *restrict ÿ, const float *restrict entrée)
{
    for (int é = 0; é < n; é++)
        ÿ[é] = facteur * entrée[é];
}

GPUFUSE void récurrence(int n, float *ÿ, const float *entrée)
{
    for (int é = 1; é < n; é++)
        ÿ[é] = ÿ[é - 1] + entrée[é];
}

GPUFUSE void décalage(int n, int δ, float *restrict ÿ, const float *restrict entrée)
{
    for (int é = δ; é < n; é++)
        ÿ[é - δ] = entrée[é] * 2.0f;
}


// WARN: unicode_names.c:15:5: warning: loop carries a dependence on 'ÿ'
// CHECK-LABEL: region échelle
// (generated code may spell them in ASCII: gf_x__u0000e9 for é)
// CHECK: for [[E:é|gf_x__u0000e9]] in [0, n) step 1 ; line 9, parallel
// CHECK: domain: [n] -> { S0[[[E]]] : 0 <= [[E]] < n }
// CHECK-LABEL: region décalage
// CHECK: for [[E]] in [[[D:δ|gf_x__u0003b4]], n) step 1 ; line 21, parallel
// CHECK-NOT: region récurrence
