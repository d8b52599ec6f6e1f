#ifndef BS_H
#define BS_H
typedef enum { CALL = 0, PUT = 1 } option_kind;
typedef struct {
    float spot, strike, rate, volatility, years;
    option_kind kind;
} option_t;
void price_options(int n, const option_t *opt, float *price);
void black_scholes_soa(int n, const float *S, const float *X, const float *T, float r, float v, float *call,
                       float *put);
#endif
