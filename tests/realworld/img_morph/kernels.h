#ifndef MORPH_H
#define MORPH_H
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define ROWS 160
#define COLS 200
void threshold(const unsigned char img[ROWS][COLS], unsigned char t, unsigned char bin[ROWS][COLS]);
void erode3(const unsigned char in[ROWS][COLS], unsigned char out[ROWS][COLS]);
void dilate3(const unsigned char in[ROWS][COLS], unsigned char out[ROWS][COLS]);
void gradient(const unsigned char a[ROWS][COLS], const unsigned char b[ROWS][COLS], unsigned char out[ROWS][COLS]);
#endif
