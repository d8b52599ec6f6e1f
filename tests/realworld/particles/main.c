#include "rw.h"
#include "kernels.h"

static void out_particles(const char *what, const particle *p, int n)
{
    float *f = rw_alloc(5 * (size_t)n, sizeof(float));
    int *k = rw_alloc(n, sizeof(int));
    char name[64];
    for (int i = 0; i < n; i++) {
        f[5 * i] = p[i].x, f[5 * i + 1] = p[i].y, f[5 * i + 2] = p[i].vx, f[5 * i + 3] = p[i].vy;
        f[5 * i + 4] = p[i].life;
        k[i] = p[i].kind;
    }
    snprintf(name, sizeof name, "%s.fields", what);
    rw_out_f(name, f, 5 * (size_t)n, 1e-5, 1e-6);
    snprintf(name, sizeof name, "%s.kind", what);
    rw_out_i(name, k, n, 0);
    free(f), free(k);
}

int main(void)
{
    const int n = 20000;
    rw_seed(48);
    particle *p = rw_alloc(n, sizeof *p);
    static const int kinds[4] = {DUST, GAS, SPARK, SMOKE};
    for (int i = 0; i < n; i++) {
        p[i].x = (float)rw_uniform(0, 10), p[i].y = (float)rw_uniform(0, 10);
        p[i].vx = (float)rw_uniform(-1, 1), p[i].vy = (float)rw_uniform(-1, 1);
        /* multiples of 1/64: the ageing is exact */
        p[i].life = rw_int(0, 64) / 64.0f;
        p[i].kind = kinds[rw_int(0, 3)];
    }
    update_particles(n, p, 0.01f, 9.81f);
    out_particles("update_particles", p, n);
    age_particles(n, p, 0.125f);
    out_particles("age_particles", p, n);
    rw_out_int("count_alive.return", count_alive(n, p));
    return 0;
}
