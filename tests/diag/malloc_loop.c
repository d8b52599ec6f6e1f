#include <gpufuse.h>
#include <stdlib.h>

GPUFUSE void perrow(int rows, int cols, float a[rows][cols])
{
    for (int i = 0; i < rows; i++) {
        float *t = malloc(cols * sizeof(float)); // expected-warning {{temporary 't' is allocated inside a loop}} [-Wgpufuse-temp]
        for (int j = 0; j < cols; j++)
            t[j] = a[i][j];
        for (int j = 0; j < cols; j++)
            a[i][j] = t[cols - 1 - j];
        free(t);
    }
}
