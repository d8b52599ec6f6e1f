// A switch of 100 cases: every case reaches the IR (no fixed limit on the
// children of a node); the host plan is compared with the C body (diffcheck).
// DIFF-INIT: k in [0, 110)
#include <gpufuse.h>

GPUFUSE void cases(int n, const int *restrict k, const float *restrict x, float *restrict y)
{
    for (int i = 0; i < n; i++) {
        switch (k[i]) {
        case 0: y[i] = x[i] * 1.0f + 0.0f; break;
        case 1: y[i] = x[i] * 2.0f + 1.0f; break;
        case 2: y[i] = x[i] * 3.0f + 2.0f; break;
        case 3: y[i] = x[i] * 4.0f + 3.0f; break;
        case 4: y[i] = x[i] * 5.0f + 4.0f; break;
        case 5: y[i] = x[i] * 6.0f + 5.0f; break;
        case 6: y[i] = x[i] * 7.0f + 6.0f; break;
        case 7: y[i] = x[i] * 1.0f + 7.0f; break;
        case 8: y[i] = x[i] * 2.0f + 8.0f; break;
        case 9: y[i] = x[i] * 3.0f + 9.0f; break;
        case 10: y[i] = x[i] * 4.0f + 10.0f; break;
        case 11: y[i] = x[i] * 5.0f + 11.0f; break;
        case 12: y[i] = x[i] * 6.0f + 12.0f; break;
        case 13: y[i] = x[i] * 7.0f + 13.0f; break;
        case 14: y[i] = x[i] * 1.0f + 14.0f; break;
        case 15: y[i] = x[i] * 2.0f + 15.0f; break;
        case 16: y[i] = x[i] * 3.0f + 16.0f; break;
        case 17: y[i] = x[i] * 4.0f + 17.0f; break;
        case 18: y[i] = x[i] * 5.0f + 18.0f; break;
        case 19: y[i] = x[i] * 6.0f + 19.0f; break;
        case 20: y[i] = x[i] * 7.0f + 20.0f; break;
        case 21: y[i] = x[i] * 1.0f + 21.0f; break;
        case 22: y[i] = x[i] * 2.0f + 22.0f; break;
        case 23: y[i] = x[i] * 3.0f + 23.0f; break;
        case 24: y[i] = x[i] * 4.0f + 24.0f; break;
        case 25: y[i] = x[i] * 5.0f + 25.0f; break;
        case 26: y[i] = x[i] * 6.0f + 26.0f; break;
        case 27: y[i] = x[i] * 7.0f + 27.0f; break;
        case 28: y[i] = x[i] * 1.0f + 28.0f; break;
        case 29: y[i] = x[i] * 2.0f + 29.0f; break;
        case 30: y[i] = x[i] * 3.0f + 30.0f; break;
        case 31: y[i] = x[i] * 4.0f + 31.0f; break;
        case 32: y[i] = x[i] * 5.0f + 32.0f; break;
        case 33: y[i] = x[i] * 6.0f + 33.0f; break;
        case 34: y[i] = x[i] * 7.0f + 34.0f; break;
        case 35: y[i] = x[i] * 1.0f + 35.0f; break;
        case 36: y[i] = x[i] * 2.0f + 36.0f; break;
        case 37: y[i] = x[i] * 3.0f + 37.0f; break;
        case 38: y[i] = x[i] * 4.0f + 38.0f; break;
        case 39: y[i] = x[i] * 5.0f + 39.0f; break;
        case 40: y[i] = x[i] * 6.0f + 40.0f; break;
        case 41: y[i] = x[i] * 7.0f + 41.0f; break;
        case 42: y[i] = x[i] * 1.0f + 42.0f; break;
        case 43: y[i] = x[i] * 2.0f + 43.0f; break;
        case 44: y[i] = x[i] * 3.0f + 44.0f; break;
        case 45: y[i] = x[i] * 4.0f + 45.0f; break;
        case 46: y[i] = x[i] * 5.0f + 46.0f; break;
        case 47: y[i] = x[i] * 6.0f + 47.0f; break;
        case 48: y[i] = x[i] * 7.0f + 48.0f; break;
        case 49: y[i] = x[i] * 1.0f + 49.0f; break;
        case 50: y[i] = x[i] * 2.0f + 50.0f; break;
        case 51: y[i] = x[i] * 3.0f + 51.0f; break;
        case 52: y[i] = x[i] * 4.0f + 52.0f; break;
        case 53: y[i] = x[i] * 5.0f + 53.0f; break;
        case 54: y[i] = x[i] * 6.0f + 54.0f; break;
        case 55: y[i] = x[i] * 7.0f + 55.0f; break;
        case 56: y[i] = x[i] * 1.0f + 56.0f; break;
        case 57: y[i] = x[i] * 2.0f + 57.0f; break;
        case 58: y[i] = x[i] * 3.0f + 58.0f; break;
        case 59: y[i] = x[i] * 4.0f + 59.0f; break;
        case 60: y[i] = x[i] * 5.0f + 60.0f; break;
        case 61: y[i] = x[i] * 6.0f + 61.0f; break;
        case 62: y[i] = x[i] * 7.0f + 62.0f; break;
        case 63: y[i] = x[i] * 1.0f + 63.0f; break;
        case 64: y[i] = x[i] * 2.0f + 64.0f; break;
        case 65: y[i] = x[i] * 3.0f + 65.0f; break;
        case 66: y[i] = x[i] * 4.0f + 66.0f; break;
        case 67: y[i] = x[i] * 5.0f + 67.0f; break;
        case 68: y[i] = x[i] * 6.0f + 68.0f; break;
        case 69: y[i] = x[i] * 7.0f + 69.0f; break;
        case 70: y[i] = x[i] * 1.0f + 70.0f; break;
        case 71: y[i] = x[i] * 2.0f + 71.0f; break;
        case 72: y[i] = x[i] * 3.0f + 72.0f; break;
        case 73: y[i] = x[i] * 4.0f + 73.0f; break;
        case 74: y[i] = x[i] * 5.0f + 74.0f; break;
        case 75: y[i] = x[i] * 6.0f + 75.0f; break;
        case 76: y[i] = x[i] * 7.0f + 76.0f; break;
        case 77: y[i] = x[i] * 1.0f + 77.0f; break;
        case 78: y[i] = x[i] * 2.0f + 78.0f; break;
        case 79: y[i] = x[i] * 3.0f + 79.0f; break;
        case 80: y[i] = x[i] * 4.0f + 80.0f; break;
        case 81: y[i] = x[i] * 5.0f + 81.0f; break;
        case 82: y[i] = x[i] * 6.0f + 82.0f; break;
        case 83: y[i] = x[i] * 7.0f + 83.0f; break;
        case 84: y[i] = x[i] * 1.0f + 84.0f; break;
        case 85: y[i] = x[i] * 2.0f + 85.0f; break;
        case 86: y[i] = x[i] * 3.0f + 86.0f; break;
        case 87: y[i] = x[i] * 4.0f + 87.0f; break;
        case 88: y[i] = x[i] * 5.0f + 88.0f; break;
        case 89: y[i] = x[i] * 6.0f + 89.0f; break;
        case 90: y[i] = x[i] * 7.0f + 90.0f; break;
        case 91: y[i] = x[i] * 1.0f + 91.0f; break;
        case 92: y[i] = x[i] * 2.0f + 92.0f; break;
        case 93: y[i] = x[i] * 3.0f + 93.0f; break;
        case 94: y[i] = x[i] * 4.0f + 94.0f; break;
        case 95: y[i] = x[i] * 5.0f + 95.0f; break;
        case 96: y[i] = x[i] * 6.0f + 96.0f; break;
        case 97: y[i] = x[i] * 7.0f + 97.0f; break;
        case 98: y[i] = x[i] * 1.0f + 98.0f; break;
        case 99: y[i] = x[i] * 2.0f + 99.0f; break;
        default: y[i] = -1.0f; break;
        }
    }
}

// CHECK-LABEL: region cases
// CHECK: for i in [0, n) step 1 ; line 8, parallel
// CHECK: if (gf_sw == 0)
// CHECK: if (gf_sw == 63)
// CHECK: if (gf_sw == 64)
// CHECK: if (gf_sw == 99)
// CHECK-NEXT: block
// CHECK-NEXT: S100: y[i] = ((x[i] * 2.0f) + 99.0f)
// CHECK: S101: y[i] = (-1.0f)
