/* countdown: loops that count down, the forms real code uses: i-- from
 * n - 1, the size_t idiom 'i-- > 0', a reverse copy, back substitution
 * (a true recurrence), a reverse scan for the last match per row */
#include <gpufuse.h>
#include <stddef.h>

GPUFUSE void reverse_copy(int n, const float *x, float *y)
{
    for (int i = n - 1; i >= 0; i--)
        y[n - 1 - i] = x[i];
}

GPUFUSE void scale_down(size_t n, double *x, double s)
{
    for (size_t i = n; i-- > 0;)
        x[i] *= s;
}

GPUFUSE void shift_right(int n, float *x)
{
    /* in place: only correct counting down */
    for (int i = n - 1; i > 0; i--)
        x[i] = x[i - 1];
    x[0] = 0.0f;
}

GPUFUSE void back_substitution(int n, const double U[n][n], const double b[n], double x[n])
{
    for (int i = n - 1; i >= 0; i--) {
        double s = b[i];
        for (int j = i + 1; j < n; j++)
            s -= U[i][j] * x[j];
        x[i] = s / U[i][i];
    }
}

GPUFUSE void last_above(int rows, int cols, const float a[rows][cols], float t, int last[rows])
{
    for (int r = rows - 1; r >= 0; r--) {
        int found = -1;
        for (int c = cols - 1; c >= 0; c--)
            if (a[r][c] > t) {
                found = c;
                break;
            }
        last[r] = found;
    }
}
