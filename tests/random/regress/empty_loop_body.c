/* softmax: per-row max, sum of exponentials and normalisation of a
 * rows x cols matrix; gpufuse fuses the three passes into one kernel. */
#include <gpufuse.h>
#include <math.h>

GPUFUSE void softmax(int rows, int cols, const float x[rows][cols],
                     float y[rows][cols])
{
    for (int i = 0; i < rows; i++) {
    
    }
}
