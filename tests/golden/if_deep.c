// Conditions nested 40 deep (no fixed limit on nesting).
// DIFF-INIT: x in [-1, 1)
#include <gpufuse.h>

GPUFUSE void deep(int n, const float *restrict x, float *restrict y)
{
    for (int i = 0; i < n; i++) {
        if (x[i] > -1.000f) {
            y[i] = 0.0f;
            if (x[i] > -0.960f) {
                y[i] = 1.0f;
                if (x[i] > -0.920f) {
                    y[i] = 2.0f;
                    if (x[i] > -0.880f) {
                        y[i] = 3.0f;
                        if (x[i] > -0.840f) {
                            y[i] = 4.0f;
                            if (x[i] > -0.800f) {
                                y[i] = 5.0f;
                                if (x[i] > -0.760f) {
                                    y[i] = 6.0f;
                                    if (x[i] > -0.720f) {
                                        y[i] = 7.0f;
                                        if (x[i] > -0.680f) {
                                            y[i] = 8.0f;
                                            if (x[i] > -0.640f) {
                                                y[i] = 9.0f;
                                                if (x[i] > -0.600f) {
                                                    y[i] = 10.0f;
                                                    if (x[i] > -0.560f) {
                                                        y[i] = 11.0f;
                                                        if (x[i] > -0.520f) {
                                                            y[i] = 12.0f;
                                                            if (x[i] > -0.480f) {
                                                                y[i] = 13.0f;
                                                                if (x[i] > -0.440f) {
                                                                    y[i] = 14.0f;
                                                                    if (x[i] > -0.400f) {
                                                                        y[i] = 15.0f;
                                                                        if (x[i] > -0.360f) {
                                                                            y[i] = 16.0f;
                                                                            if (x[i] > -0.320f) {
                                                                                y[i] = 17.0f;
                                                                                if (x[i] > -0.280f) {
                                                                                    y[i] = 18.0f;
                                                                                    if (x[i] > -0.240f) {
                                                                                        y[i] = 19.0f;
                                                                                        if (x[i] > -0.200f) {
                                                                                            y[i] = 20.0f;
                                                                                            if (x[i] > -0.160f) {
                                                                                                y[i] = 21.0f;
                                                                                                if (x[i] > -0.120f) {
                                                                                                    y[i] = 22.0f;
                                                                                                    if (x[i] > -0.080f) {
                                                                                                        y[i] = 23.0f;
                                                                                                        if (x[i] > -0.040f) {
                                                                                                            y[i] = 24.0f;
                                                                                                            if (x[i] > 0.000f) {
                                                                                                                y[i] = 25.0f;
                                                                                                                if (x[i] > 0.040f) {
                                                                                                                    y[i] = 26.0f;
                                                                                                                    if (x[i] > 0.080f) {
                                                                                                                        y[i] = 27.0f;
                                                                                                                        if (x[i] > 0.120f) {
                                                                                                                            y[i] = 28.0f;
                                                                                                                            if (x[i] > 0.160f) {
                                                                                                                                y[i] = 29.0f;
                                                                                                                                if (x[i] > 0.200f) {
                                                                                                                                    y[i] = 30.0f;
                                                                                                                                    if (x[i] > 0.240f) {
                                                                                                                                        y[i] = 31.0f;
                                                                                                                                        if (x[i] > 0.280f) {
                                                                                                                                            y[i] = 32.0f;
                                                                                                                                            if (x[i] > 0.320f) {
                                                                                                                                                y[i] = 33.0f;
                                                                                                                                                if (x[i] > 0.360f) {
                                                                                                                                                    y[i] = 34.0f;
                                                                                                                                                    if (x[i] > 0.400f) {
                                                                                                                                                        y[i] = 35.0f;
                                                                                                                                                        if (x[i] > 0.440f) {
                                                                                                                                                            y[i] = 36.0f;
                                                                                                                                                            if (x[i] > 0.480f) {
                                                                                                                                                                y[i] = 37.0f;
                                                                                                                                                                if (x[i] > 0.520f) {
                                                                                                                                                                    y[i] = 38.0f;
                                                                                                                                                                    if (x[i] > 0.560f) {
                                                                                                                                                                        y[i] = 39.0f;
                                                                                                                                                                    }
                                                                                                                                                                }
                                                                                                                                                            }
                                                                                                                                                        }
                                                                                                                                                    }
                                                                                                                                                }
                                                                                                                                            }
                                                                                                                                        }
                                                                                                                                    }
                                                                                                                                }
                                                                                                                            }
                                                                                                                        }
                                                                                                                    }
                                                                                                                }
                                                                                                            }
                                                                                                        }
                                                                                                    }
                                                                                                }
                                                                                            }
                                                                                        }
                                                                                    }
                                                                                }
                                                                            }
                                                                        }
                                                                    }
                                                                }
                                                            }
                                                        }
                                                    }
                                                }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

// CHECK-LABEL: region deep
// CHECK: for i in [0, n) step 1 ; line 7, parallel
// CHECK: S39: y[i] = 39.0f
