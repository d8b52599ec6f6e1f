/* tile_emu.cpp - the tiled kernels gpufuse generates for tile_kernels.c
 * (SH_TILED, both forms: register blocks and one output per thread), run on
 * the CPU against the C bodies, bit for bit: tile_emu.py extracts the
 * kernels from tile.gf.cu into kernels.inc and builds this file around them.
 * A block is 256 threads (pthreads, a barrier for __syncthreads), blocks run
 * in turn, __shared__ arrays are function statics; gridDim.y is at most 2 so
 * the kernels' stride over row tiles runs too.  Compiled without
 * contraction, as the C bodies.  What it cannot see: the GPU's memory model
 * beyond barriers, warps, nvcc's code (edge_tile checks those on a GPU). */
#include <pthread.h>
#include <functional>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <vector>
struct D3 { unsigned x, y, z; };
thread_local D3 threadIdx, blockIdx;
D3 gridDim, blockDim;
static pthread_barrier_t bar;
#define __syncthreads() pthread_barrier_wait(&bar)
#define __global__
#define __launch_bounds__(x)
#define __shared__ static
#define __restrict__ __restrict
#define GF_UNUSED __attribute__((unused))
#define GF_TILE 16
#include "kernels.inc"

static std::function<void()> body;
static void *worker(void *arg)
{
    long t = (long)arg;
    for (unsigned by = 0; by < gridDim.y; by++)
        for (unsigned bx = 0; bx < gridDim.x; bx++) {
            threadIdx = {(unsigned)(t % 16), (unsigned)(t / 16), 0};
            blockIdx = {bx, by, 0};
            body();
            pthread_barrier_wait(&bar);
        }
    return NULL;
}
static void launch(long long n0, long long n1, int ti, int tj, std::function<void()> f)
{
    long long gx = (n1 + tj - 1) / tj, gy = (n0 + ti - 1) / ti;
    gridDim = {(unsigned)(gx < 1 ? 1 : gx), (unsigned)(gy < 1 ? 1 : gy > 2 ? 2 : gy), 1};  // y strides past 2 tiles
    body = f;
    pthread_barrier_init(&bar, NULL, 256);
    pthread_t th[256];
    for (long t = 0; t < 256; t++) pthread_create(&th[t], NULL, worker, (void *)t);
    for (int t = 0; t < 256; t++) pthread_join(th[t], NULL);
    pthread_barrier_destroy(&bar);
}
extern "C" {
void tcov(int m, int n, double float_n, const double *data, double *cov);
void tcorr(int m, int n, const double *data, double *corr);
void tgemm_int(int ni, int nj, int nk, int q, const int *a, const int *b, int *c);
void tgemm_d(int ni, int nj, int nk, double d, const double *a, const double *b, double *c);
void tlower(int m, int n, const int *x, int *y);
void tsgemm(int ni, int nj, int nk, float q, const float *a, const float *b, float *c);
void tdgemm(int ni, int nj, int nk, double q, const double *a, const double *b, double *c);
void tcovf(int m, int n, float float_n, const float *data, float *cov);
void tkeep(int ni, int nj, int nk, const double *a, const double *b, double *c);
void tpgemm(int ni, int nj, int nk, double alpha, double beta, double *c, const double *a, const double *b);
void tsyrk(int n, int m, double alpha, double beta, double *c, const double *a);
void tsyr2k(int n, int m, double alpha, double beta, double *c, const double *a, const double *b);
}
static int fails;
template <typename T> static std::vector<T> rnd(size_t n, bool integer)
{
    std::vector<T> v(n ? n : 1);
    for (auto &x : v) x = integer ? (T)(rand() % 200 - 100) : (T)(2.0 * rand() / RAND_MAX - 1);
    return v;
}
template <typename T> static void same(const char *w, int a, int b, int c, const std::vector<T> &x, const std::vector<T> &y)
{
    if (memcmp(x.data(), y.data(), x.size() * sizeof(T))) {
        for (size_t i = 0; i < x.size(); i++)
            if (memcmp(&x[i], &y[i], sizeof(T))) { printf("FAIL %s %d %d %d at %zu: %g vs %g\n", w, a, b, c, i, (double)x[i], (double)y[i]); break; }
        fails++;
    }
}
static void run(int a, int b, int c)
{
    { // tcov / tcorr / tcovf: m = a, n = b
        int m = a, n = b;
        auto data = rnd<double>((size_t)n * m, false);
        std::vector<double> w((size_t)m * m, NAN), g = w;
        tcov(m, n, n + 0.5, data.data(), w.data());
        launch(m, m, 64, 64, [&] { tcov_k0<int>(m, n, n + 0.5, g.data(), data.data(), m, m); });
        same("tcov", m, n, 0, w, g);
        std::vector<double> w2((size_t)m * m, NAN), g2 = w2;
        tcorr(m, n, data.data(), w2.data());
        long long n1 = m - 1 > 0 ? m - 1 : 0;
        launch(m, n1, 64, 64, [&] { tcorr_k0<int>(m, n, g2.data(), data.data(), m, n1); });
        same("tcorr", m, n, 0, w2, g2);
        auto df = rnd<float>((size_t)n * m, false);
        std::vector<float> wf((size_t)m * m, NAN), gf = wf;
        tcovf(m, n, n + 0.5f, df.data(), wf.data());
        launch(m, m, 64, 64, [&] { tcovf_k0<int>(m, n, n + 0.5f, gf.data(), df.data(), m, m); });
        same("tcovf", m, n, 0, wf, gf);
        auto x = rnd<int>((size_t)m * n, true);
        std::vector<int> wy((size_t)m * m, -7), gy = wy;
        tlower(m, n, x.data(), wy.data());
        launch(m, m, 64, 64, [&] { tlower_k0<int>(m, n, x.data(), gy.data(), m, m); });
        same("tlower", m, n, 0, wy, gy);
    }
    { // products ni = a, nj = b, nk = c
        int ni = a, nj = b, nk = c;
        auto A = rnd<float>((size_t)ni * nk, false), B = rnd<float>((size_t)nk * nj, false);
        std::vector<float> w((size_t)ni * nj, NAN), g = w;
        tsgemm(ni, nj, nk, 3.0f, A.data(), B.data(), w.data());
        launch(ni, nj, 64, 64, [&] { tsgemm_k0<int>(ni, nj, nk, 3.0f, A.data(), B.data(), g.data(), ni, nj); });
        same("tsgemm", ni, nj, nk, w, g);
        auto X = rnd<double>((size_t)ni * nk, false), Y = rnd<double>((size_t)nk * nj, false);
        std::vector<double> wd((size_t)ni * nj, NAN), gd = wd;
        tdgemm(ni, nj, nk, 3.0, X.data(), Y.data(), wd.data());
        launch(ni, nj, 64, 64, [&] { tdgemm_k0<int>(ni, nj, nk, 3.0, X.data(), Y.data(), gd.data(), ni, nj); });
        same("tdgemm", ni, nj, nk, wd, gd);
        auto Z = rnd<double>((size_t)ni * nj, false), wz = Z, gz = Z;
        tkeep(ni, nj, nk, X.data(), Y.data(), wz.data());
        launch(ni, nj, 16, 16, [&] { tkeep_k0<int>(ni, nj, nk, gz.data(), X.data(), Y.data(), ni, nj); });
        same("tkeep", ni, nj, nk, wz, gz);
        auto YT = rnd<double>((size_t)nj * nk, false); wz = Z, gz = Z;  // tgemm_d: a nk x ni (X reused as nk x ni), b nj x nk
        tgemm_d(ni, nj, nk, 3.0, X.data(), YT.data(), wz.data());
        launch(ni, nj, 64, 64, [&] { tgemm_d_k0<int>(ni, nj, nk, 3.0, gz.data(), X.data(), YT.data(), ni, nj); });
        same("tgemm_d", ni, nj, nk, wz, gz);
        auto IA = rnd<int>((size_t)ni * nk, true), IB = rnd<int>((size_t)nk * nj, true), IC = rnd<int>((size_t)ni * nj, true);
        auto wi = IC, gi = IC;
        tgemm_int(ni, nj, nk, 7, IA.data(), IB.data(), wi.data());
        launch(ni, nj, 64, 64, [&] { tgemm_int_k0<int>(ni, nj, nk, 7, IA.data(), IB.data(), gi.data(), ni, nj); });
        same("tgemm_int", ni, nj, nk, wi, gi);
        // PolyBench's order: c scaled by beta first, the k loop outside the column loop
        auto PA = rnd<double>((size_t)ni * nk, false), PB = rnd<double>((size_t)nk * nj, false);
        auto PC = rnd<double>((size_t)ni * nj, false), wp = PC, gp = PC;
        tpgemm(ni, nj, nk, 1.5, -0.75, wp.data(), PA.data(), PB.data());
        launch(ni, nj, 64, 64, [&] { tpgemm_k0<int>(ni, nj, -0.75, nk, 1.5, gp.data(), PA.data(), PB.data(), ni, nj); });
        same("tpgemm", ni, nj, nk, wp, gp);
        // the triangles: n = a, m = c (a's rows, b's columns)
        int n = ni, m = nk;
        auto SA = rnd<double>((size_t)n * m, false), SB = rnd<double>((size_t)n * m, false);
        auto SC = rnd<double>((size_t)n * n, false), ws = SC, gs = SC;
        tsyrk(n, m, 1.5, -0.75, ws.data(), SA.data());
        launch(n, n, 64, 64, [&] { tsyrk_k0<int>(n, -0.75, m, 1.5, gs.data(), SA.data(), n, n); });
        same("tsyrk", n, m, 0, ws, gs);
        ws = SC, gs = SC;
        tsyr2k(n, m, 1.5, -0.75, ws.data(), SA.data(), SB.data());
        launch(n, n, 64, 64, [&] { tsyr2k_k0<int>(n, -0.75, m, 1.5, gs.data(), SA.data(), SB.data(), n, n); });
        same("tsyr2k", n, m, 0, ws, gs);
    }
}
int main()
{
    int s[] = {1, 15, 17, 63, 64, 65, 127, 130};
    for (int i = 0; i < 8; i++) { run(s[i], s[i], s[i]); run(s[i], s[(i + 3) % 8], s[(i + 5) % 8]); }
    run(200, 1, 33); run(1, 129, 200);
    printf("%d failures\n", fails);
    return fails != 0;
}
