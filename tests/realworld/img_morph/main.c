#include "rw.h"
#include "kernels.h"

int main(void)
{
    rw_seed(17);
    static unsigned char img[ROWS][COLS], bin[ROWS][COLS], er[ROWS][COLS], di[ROWS][COLS], gr[ROWS][COLS];
    rw_fill_u8(&img[0][0], sizeof img);
    threshold(img, 140, bin);
    rw_out_u8("threshold.bin", &bin[0][0], sizeof bin, 0);
    erode3(bin, er);
    rw_out_u8("erode3.out", &er[0][0], sizeof er, 0);
    dilate3(bin, di);
    rw_out_u8("dilate3.out", &di[0][0], sizeof di, 0);
    gradient(di, er, gr);
    rw_out_u8("gradient.out", &gr[0][0], sizeof gr, 0);
    return 0;
}
