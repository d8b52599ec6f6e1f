// `break` of a loop run per element inside a parallel loop: a flag declared
// just before the loop (gf_brk) is set where the loop broke, the statements
// after it run under `if (!gf_brk)`, and the loop stops once it is set
// (`until gf_brk`).  The flag makes the loop sequential; the parallel loop
// around it stays parallel.
// DIFF-INIT: x in [0, 1)
// DIFF-INIT: xs in [0, 1)
// DIFF-SIZE: xs = n * m
#include <gpufuse.h>
#include <math.h>

// A search: the first column above a threshold, per row.
GPUFUSE void first_above(int n, int m, float t, const float *restrict xs, int *restrict idx)
{
    for (int i = 0; i < n; i++) {
        int found = -1;
        for (int k = 0; k < m; k++)
            if (xs[i * m + k] > t) {
                found = k;
                break;
            }
        idx[i] = found;
    }
}

// A running sum that stops past a limit; statements after the break are
// guarded, and a `continue` in the same loop.
GPUFUSE void capped_sum(int rows, int cols, const float a[rows][cols], float out[rows], int used[rows])
{
    for (int i = 0; i < rows; i++) {
        float s = 0.0f;
        int c = 0;
        for (int j = 0; j < cols; j++) {
            if (a[i][j] < 0.1f)
                continue;
            s += a[i][j];
            if (s > 2.0f)
                break;
            c++;
        }
        out[i] = s;
        used[i] = c;
    }
}

// A while loop with an early exit, and a switch in the loop whose cases
// end with the switch's own `break`.
GPUFUSE void walk(int n, const int *restrict start, const int op[4], int *restrict steps)
{
    for (int i = 0; i < n; i++) {
        int v = start[i];
        int c = 0;
        while (v != 1) {
            switch (op[(v + c) & 3]) {
            case 0: v = v % 2 == 0 ? v / 2 : 3 * v + 1; break;
            case 1: v = v / 2 + 1; break;
            default: v = v - 1; break;
            }
            c++;
            if (c == 40)
                break;
        }
        steps[i] = c;
    }
}

// Nested loops that both break, in a 2-D parallel nest; the inner break
// leaves only the inner loop.
GPUFUSE void nested(int n, int m, int l, const float x[n][m][l], float y[n][m])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            float acc = 0.0f;
            for (int k = 0; k < l; k++) {
                float p = 1.0f;
                for (int q = 0; q < l; q++) {
                    p *= x[i][j][q];
                    if (p < 0.05f)
                        break;
                }
                acc += p;
                if (acc > 1.5f)
                    break;
                acc += x[i][j][k];
            }
            y[i][j] = acc;
        }
}

// A store before the break: elements the loop no longer reaches keep
// their old value, so the launcher copies 'out' in although every store to
// it is unconditional.
GPUFUSE void first_only(int n, int m, const float a[n][m], float out[n][m])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            out[i][j] = 2.0f * a[i][j];
            if (a[i][j] > 0.5f)
                break;
        }
}

// A loop inside a switch case: its `break` leaves the loop, the case's
// last `break` leaves the switch.
GPUFUSE void case_loop(int n, int m, const int *restrict mode, const float a[n][m], float out[n])
{
    for (int i = 0; i < n; i++) {
        float s = 0.0f;
        switch (mode[i] % 3) {
        case 0:
            for (int j = 0; j < m; j++) {
                if (a[i][j] > 0.8f)
                    break;
                s += a[i][j];
            }
            break;
        case 1:
            s = -1.0f;
            break;
        default:
            s = a[i][0];
        }
        out[i] = s;
    }
}

// CHECK-LABEL: region first_above
// CHECK: for i in [0, n) step 1 ; line 15, parallel
// CHECK-NEXT: block
// CHECK-NEXT: S0: decl int found = (-1)
// CHECK-NEXT: S3: decl int gf_brk = 0
// CHECK-NEXT: for k in [0, m) step 1 until gf_brk ; line 17, sequential
// CHECK-NEXT: if (xs[((i * m) + k)] > t)
// CHECK-NEXT: block
// CHECK-NEXT: S1: found = k
// CHECK-NEXT: S2: gf_brk = 1
// CHECK-NEXT: S4: idx[i] = found
// CHECK-LABEL: region capped_sum
// CHECK: for i in [0, rows) step 1 ; line 30, parallel
// CHECK: decl int gf_brk = 0
// CHECK-NEXT: for j in [0, cols) step 1 until gf_brk ; line 33, sequential
// CHECK-NEXT: block
// CHECK-NEXT: decl int gf_skip = 0
// CHECK-NEXT: if (a[i][j] < 0.1f)
// CHECK-NEXT: gf_skip = 1
// CHECK-NEXT: if (!gf_skip)
// CHECK-NEXT: block
// CHECK-NEXT: s += a[i][j]
// CHECK-NEXT: if (s > 2.0f)
// CHECK-NEXT: gf_brk = 1
// CHECK-NEXT: if (!gf_brk)
// CHECK-NEXT: block
// CHECK-NEXT: c += 1
// CHECK: out[i] = s
// CHECK-LABEL: region walk
// CHECK: for i in [0, n) step 1 ; line 50, parallel
// CHECK: decl int gf_brk = 0
// CHECK-NEXT: while (v != 1) until gf_brk
// CHECK: c += 1
// CHECK-NEXT: if (c == 40)
// CHECK-NEXT: gf_brk = 1
// CHECK-NEXT: steps[i] = c
// CHECK-LABEL: region nested
// CHECK: for i in [0, n) step 1 ; line 71, parallel
// CHECK-NEXT: for j in [0, m) step 1 ; line 72, parallel
// CHECK: decl int gf_brk_1 = 0
// CHECK-NEXT: for k in [0, l) step 1 until gf_brk_1 ; line 74, sequential
// CHECK: decl int gf_brk = 0
// CHECK-NEXT: for q in [0, l) step 1 until gf_brk ; line 76, sequential
// CHECK: gf_brk = 1
// CHECK: acc += p
// CHECK-NEXT: if (acc > 1.5f)
// CHECK-NEXT: gf_brk_1 = 1
// CHECK-NEXT: if (!gf_brk_1)
// CHECK-NEXT: block
// CHECK-NEXT: acc += x[i][j][k]
// CHECK-LABEL: region first_only
// CHECK: for i in [0, n) step 1 ; line 95, parallel
// CHECK: for j in [0, m) step 1 until gf_brk ; line 96, sequential
// CHECK-NEXT: block
// CHECK-NEXT: out[i][j] = (2.0f * a[i][j])
// CHECK-NEXT: if (a[i][j] > 0.5f)
// CHECK-NEXT: gf_brk = 1

// REPORT-LABEL: region first_above
// REPORT: kernel first_above_k0 [map, 1-D]: lines 15-23
// REPORT-LABEL: region nested
// REPORT: kernel nested_k0 [map, 2-D]: lines 71-87

// CU-LABEL: first_above_k0(
// CU: int gf_brk = 0;
// CU-NEXT: for (int k = 0; k < m && !gf_brk; k++) {
// CU-NEXT: if (xs[i * m + k] > t) {
// CU-NEXT: found = k;
// CU-NEXT: gf_brk = 1;
// CU-LABEL: walk_k0(
// CU: int gf_brk = 0;
// CU-NEXT: while (!gf_brk && v != 1) {
// CU-LABEL: nested_k0(
// CU: for (int k = 0; k < l && !gf_brk_1; k++) {
// CU: for (int q = 0; q < l && !gf_brk; q++) {
// CU-LABEL: gf_host_first_only(
// CU: for (int j = 0; j < m && !gf_brk; j++) {
// CU-LABEL: extern "C" void first_only(
// CU: gf_call_arg(gf_c, 1, out, gf_lo_out, gf_hi_out, GF_ARG_READ | GF_ARG_WRITE,
// CHECK-LABEL: region case_loop
// CHECK: for i in [0, n) step 1 ; line 107, parallel
// CHECK: decl int gf_sw = (mode[i] % 3)
// CHECK-NEXT: if (gf_sw == 0)
// CHECK-NEXT: block
// CHECK-NEXT: decl int gf_brk = 0
// CHECK-NEXT: for j in [0, m) step 1 until gf_brk ; line 111, sequential
// CHECK-NEXT: block
// CHECK-NEXT: if (a[i][j] > 0.8f)
// CHECK-NEXT: gf_brk = 1
// CHECK-NEXT: if (!gf_brk)
// CHECK-NEXT: block
// CHECK-NEXT: s += a[i][j]
// CHECK-NEXT: else
// CHECK-NEXT: if (gf_sw == 1)
