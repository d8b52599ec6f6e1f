/* img_morph: thresholding and 3x3 morphology with MIN/MAX macros on
 * fixed-size 2-D arrays (#define sizes) */
#include <gpufuse.h>
#include "kernels.h"

GPUFUSE void threshold(const unsigned char img[ROWS][COLS], unsigned char t, unsigned char bin[ROWS][COLS])
{
    int r, c;
    for (r = 0; r < ROWS; r++)
        for (c = 0; c < COLS; c++)
            bin[r][c] = img[r][c] >= t ? 255 : 0;
}

GPUFUSE void erode3(const unsigned char in[ROWS][COLS], unsigned char out[ROWS][COLS])
{
    for (int r = 1; r < ROWS - 1; r++)
        for (int c = 1; c < COLS - 1; c++) {
            unsigned char m = 255;
            for (int dr = -1; dr <= 1; dr++)
                for (int dc = -1; dc <= 1; dc++)
                    m = MIN(m, in[r + dr][c + dc]);
            out[r][c] = m;
        }
}

GPUFUSE void dilate3(const unsigned char in[ROWS][COLS], unsigned char out[ROWS][COLS])
{
    for (int r = 1; r < ROWS - 1; r++)
        for (int c = 1; c < COLS - 1; c++) {
            unsigned char m = 0;
            for (int dr = -1; dr <= 1; dr++)
                for (int dc = -1; dc <= 1; dc++)
                    if (in[r + dr][c + dc] > m)
                        m = in[r + dr][c + dc];
            out[r][c] = m;
        }
}

GPUFUSE void gradient(const unsigned char a[ROWS][COLS], const unsigned char b[ROWS][COLS],
                      unsigned char out[ROWS][COLS])
{
    for (int r = 0; r < ROWS; r++)
        for (int c = 0; c < COLS; c++)
            out[r][c] = (unsigned char)MAX(a[r][c] - b[r][c], 0);
}
