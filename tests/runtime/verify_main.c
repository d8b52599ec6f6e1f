/* verify_main.c - calls the functions of verify_kernels.c, whose kernels
 * break_kernels.py broke in one element each, on host arrays and, with
 * --device-memory and a GPU, on gf_malloc memory and a data region whose
 * host copy is stale (so a copy taken from the host would be wrong).
 * verify_broken.py checks what GPUFUSE_VERIFY=1 reports. */
#include <gpufuse.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { R = 8, C = 12, N = 100 };

struct pt {
    float x, y;
    int tag;
};

void affine2d(int rows, int cols, const float x[rows][cols], float y[rows][cols]);
long long weighted_sum(int n, const int *restrict x);
void shift_points(int n, float dx, struct pt *restrict p);

static float x[R][C], y[R][C];
static int xi[N];
static struct pt pts[N];

static void fill(void)
{
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++)
            x[i][j] = 2.0f;
    for (int i = 0; i < N; i++) {
        xi[i] = 1;
        pts[i] = (struct pt){(float)i, 0.0f, 10 * i};
    }
}

static int check(gf_status s, const char *what)
{
    if (s != GF_SUCCESS) {
        fprintf(stderr, "verify_main: %s: %s\n", what, gf_error_string(s));
        exit(2);
    }
    return 0;
}

/* The same calls with the arrays in device memory and a data region. */
static void on_device(void)
{
    float *dx, *dy;
    check(gf_malloc((void **)&dx, sizeof x), "gf_malloc");
    check(gf_malloc((void **)&dy, sizeof y), "gf_malloc");
    check(gf_memcpy(dx, x, sizeof x, GF_HOST_TO_DEVICE), "gf_memcpy");
    affine2d(R, C, (const float(*)[C])dx, (float(*)[C])dy);
    check(gf_data_enter(xi, sizeof xi, GF_COPYIN), "gf_data_enter");
    for (int i = 0; i < N; i++)
        xi[i] = 5; /* the host copy is stale: the call reads the mirror's 1s */
    printf("weighted_sum (data region) = %lld\n", weighted_sum(N, xi));
    check(gf_data_exit(xi), "gf_data_exit");
    check(gf_free(dx), "gf_free");
    check(gf_free(dy), "gf_free");
}

int main(int argc, char **argv)
{
    int device_memory = argc > 1 && !strcmp(argv[1], "--device-memory");
    printf("device: %s\n", gf_have_device() ? "gpu" : "cpu");
    fill();
    affine2d(R, C, x, y);
    printf("weighted_sum = %lld\n", weighted_sum(N, xi));
    shift_points(N, 0.5f, pts);
    if (device_memory && gf_have_device())
        on_device();
    return 0;
}
