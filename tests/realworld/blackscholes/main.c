#include "rw.h"
#include "kernels.h"

int main(void)
{
    const int n = 50000;
    rw_seed(40);
    option_t *opt = rw_alloc(n, sizeof *opt);
    float *price = rw_alloc(n, 4), *S = rw_alloc(n, 4), *X = rw_alloc(n, 4), *T = rw_alloc(n, 4),
          *call = rw_alloc(n, 4), *put = rw_alloc(n, 4);
    for (int i = 0; i < n; i++) {
        opt[i].spot = S[i] = (float)rw_uniform(5, 30);
        opt[i].strike = X[i] = (float)rw_uniform(1, 100);
        opt[i].rate = 0.02f;
        opt[i].volatility = 0.30f;
        opt[i].years = T[i] = (float)rw_uniform(0.25, 10);
        opt[i].kind = (i % 3) ? CALL : PUT;
    }
    price_options(n, opt, price);
    /* prices are differences of products of exp and log: absolute error on the scale of the spot */
    rw_out_f("price_options.price", price, n, 1e-4, 1e-4);
    black_scholes_soa(n, S, X, T, 0.02f, 0.30f, call, put);
    rw_out_f("black_scholes_soa.call", call, n, 1e-4, 1e-4);
    rw_out_f("black_scholes_soa.put", put, n, 1e-4, 1e-4);
    return 0;
}
