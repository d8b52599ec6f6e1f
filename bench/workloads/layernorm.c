/* layernorm: per-row mean and variance (two passes, as written by hand),
 * then the normalised row scaled by gamma and shifted by beta. */
#include <gpufuse.h>
#include <math.h>

GPUFUSE void layernorm(int rows, int cols, const float x[rows][cols],
                       const float gamma[cols], const float beta[cols],
                       float y[rows][cols])
{
    for (int i = 0; i < rows; i++) {
        float mean = 0.0f;
        for (int j = 0; j < cols; j++)
            mean += x[i][j];
        mean /= cols;
        float var = 0.0f;
        for (int j = 0; j < cols; j++)
            var += (x[i][j] - mean) * (x[i][j] - mean);
        var /= cols;
        float r = 1.0f / sqrtf(var + 1e-5f);
        for (int j = 0; j < cols; j++)
            y[i][j] = (x[i][j] - mean) * r * gamma[j] + beta[j];
    }
}
