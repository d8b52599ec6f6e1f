/* softmax: per-row max, sum of exponentials and normalisation of a
 * rows x cols matrix; gpufuse fuses the three passes into one kernel. */
#include <gpufuse.h>
#include <math.h>

GPUFUSE void softmax(int rows, int cols, const float x[rows][cols],
                     float y[rows][cols])
{
    for (int i = 0; i < rows; i++) {
        float m = -INFINITY;
        for (int j = 0; j < cols; j++)
            m = fmaxf(m, x[i][j]);
        float s = 0.0f;
        for (int j = 0; j < cols; j++)
            s += expf(x[i][j] - m);
        for (int j = 0; j < cols; j++)
            y[i][j] = expf(x[i][j] - m) / s;
    }
}
