// A while loop whose body has 100 statements: every one reaches the
// dependence model, the last one too: its recurrence on a[i][j - 1]
// keeps the j loop sequential (the i loop is parallel).
// DIFF-INIT: cnt in [0, 3)
#include <gpufuse.h>

GPUFUSE void longwhile(int n, int m, const int *restrict cnt, float a[n][m])
{
    for (int i = 0; i < n; i++)
        for (int j = 1; j < m; j++) {
            float t = 0.0f;
            int c = 0;
            while (c < cnt[i]) {
                t = t * 0.5f + 0.0f;
                t = t * 0.5f + 1.0f;
                t = t * 0.5f + 2.0f;
                t = t * 0.5f + 3.0f;
                t = t * 0.5f + 4.0f;
                t = t * 0.5f + 5.0f;
                t = t * 0.5f + 6.0f;
                t = t * 0.5f + 7.0f;
                t = t * 0.5f + 8.0f;
                t = t * 0.5f + 9.0f;
                t = t * 0.5f + 10.0f;
                t = t * 0.5f + 11.0f;
                t = t * 0.5f + 12.0f;
                t = t * 0.5f + 13.0f;
                t = t * 0.5f + 14.0f;
                t = t * 0.5f + 15.0f;
                t = t * 0.5f + 16.0f;
                t = t * 0.5f + 17.0f;
                t = t * 0.5f + 18.0f;
                t = t * 0.5f + 19.0f;
                t = t * 0.5f + 20.0f;
                t = t * 0.5f + 21.0f;
                t = t * 0.5f + 22.0f;
                t = t * 0.5f + 23.0f;
                t = t * 0.5f + 24.0f;
                t = t * 0.5f + 25.0f;
                t = t * 0.5f + 26.0f;
                t = t * 0.5f + 27.0f;
                t = t * 0.5f + 28.0f;
                t = t * 0.5f + 29.0f;
                t = t * 0.5f + 30.0f;
                t = t * 0.5f + 31.0f;
                t = t * 0.5f + 32.0f;
                t = t * 0.5f + 33.0f;
                t = t * 0.5f + 34.0f;
                t = t * 0.5f + 35.0f;
                t = t * 0.5f + 36.0f;
                t = t * 0.5f + 37.0f;
                t = t * 0.5f + 38.0f;
                t = t * 0.5f + 39.0f;
                t = t * 0.5f + 40.0f;
                t = t * 0.5f + 41.0f;
                t = t * 0.5f + 42.0f;
                t = t * 0.5f + 43.0f;
                t = t * 0.5f + 44.0f;
                t = t * 0.5f + 45.0f;
                t = t * 0.5f + 46.0f;
                t = t * 0.5f + 47.0f;
                t = t * 0.5f + 48.0f;
                t = t * 0.5f + 49.0f;
                t = t * 0.5f + 50.0f;
                t = t * 0.5f + 51.0f;
                t = t * 0.5f + 52.0f;
                t = t * 0.5f + 53.0f;
                t = t * 0.5f + 54.0f;
                t = t * 0.5f + 55.0f;
                t = t * 0.5f + 56.0f;
                t = t * 0.5f + 57.0f;
                t = t * 0.5f + 58.0f;
                t = t * 0.5f + 59.0f;
                t = t * 0.5f + 60.0f;
                t = t * 0.5f + 61.0f;
                t = t * 0.5f + 62.0f;
                t = t * 0.5f + 63.0f;
                t = t * 0.5f + 64.0f;
                t = t * 0.5f + 65.0f;
                t = t * 0.5f + 66.0f;
                t = t * 0.5f + 67.0f;
                t = t * 0.5f + 68.0f;
                t = t * 0.5f + 69.0f;
                t = t * 0.5f + 70.0f;
                t = t * 0.5f + 71.0f;
                t = t * 0.5f + 72.0f;
                t = t * 0.5f + 73.0f;
                t = t * 0.5f + 74.0f;
                t = t * 0.5f + 75.0f;
                t = t * 0.5f + 76.0f;
                t = t * 0.5f + 77.0f;
                t = t * 0.5f + 78.0f;
                t = t * 0.5f + 79.0f;
                t = t * 0.5f + 80.0f;
                t = t * 0.5f + 81.0f;
                t = t * 0.5f + 82.0f;
                t = t * 0.5f + 83.0f;
                t = t * 0.5f + 84.0f;
                t = t * 0.5f + 85.0f;
                t = t * 0.5f + 86.0f;
                t = t * 0.5f + 87.0f;
                t = t * 0.5f + 88.0f;
                t = t * 0.5f + 89.0f;
                t = t * 0.5f + 90.0f;
                t = t * 0.5f + 91.0f;
                t = t * 0.5f + 92.0f;
                t = t * 0.5f + 93.0f;
                t = t * 0.5f + 94.0f;
                t = t * 0.5f + 95.0f;
                t = t * 0.5f + 96.0f;
                t = t * 0.5f + 97.0f;
                c += 1;
                a[i][j] = a[i][j - 1] + t;
            }
        }
}

// CHECK-LABEL: region longwhile
// CHECK: for i in [0, n) step 1 ; line 9, parallel
// CHECK-NEXT: for j in [1, m) step 1 ; line 10, sequential
