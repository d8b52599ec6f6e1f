#include <gpufuse.h>

// Initialised arrays are read as tables (tests/golden/tables.c); each
// function below uses one in a way a table cannot be, and keeps its CPU body.

extern const float ext_t[4];
float mutable_lut[4] = {1, 2, 3, 4};

// written: its values would not be the same at every call
GPUFUSE void written(int n, const float *restrict x, float *restrict y)
{
    float w[3] = {0.25f, 0.5f, 0.25f};
    for (int i = 1; i < n - 1; i++) {
        w[i % 3] += 1.0f; // expected-warning {{initialised array 'w' is written; an initialised array is read as a table (its values the same at every call), so it must not be written: declare it without an initialiser and fill it in a loop}} [-Wgpufuse-temp]
        y[i] = w[0] * x[i - 1];
    }
}

GPUFUSE void bumped(int n, const float *restrict x, float *restrict y)
{
    float w[2] = {2.0f, 1.0f};
    for (int i = 0; i < n; i++) {
        y[i] = w[i & 1] * x[i];
        w[0]++; // expected-warning {{initialised array 'w' is written}} [-Wgpufuse-temp]
    }
}

// its values come from the call
GPUFUSE void from_param(int n, float a, const float *restrict x, float *restrict y)
{
    float w[2] = {a, 1.0f}; // expected-warning {{table 'w' cannot be copied into the generated file: its initialiser reads 'a', which is not a constant}} [-Wgpufuse-global]
    for (int i = 0; i < n; i++)
        y[i] = w[i & 1] * x[i];
}

float scale_of(int k);

GPUFUSE void from_call(int n, const float *restrict x, float *restrict y)
{
    const float w[2] = {scale_of(0), 1.0f}; // expected-warning {{table 'w' cannot be copied into the generated file: its initialiser calls 'scale_of', which is not a constant}} [-Wgpufuse-global]
    for (int i = 0; i < n; i++)
        y[i] = w[i & 1] * x[i];
}

// defined in another file: no values to copy
GPUFUSE void elsewhere(int n, const float *restrict x, float *restrict y)
{
    for (int i = 0; i < n; i++)
        y[i] = ext_t[i & 3] * x[i]; // expected-warning {{table 'ext_t' cannot be copied into the generated file: constant 'ext_t' has no initialiser in this translation unit}} [-Wgpufuse-global]
}

// a global that is not const: another function may change it between calls
GPUFUSE void not_const(int n, const float *restrict x, float *restrict y)
{
    for (int i = 0; i < n; i++)
        y[i] = mutable_lut[i & 3] * x[i]; // expected-warning {{global array 'mutable_lut' is not visible to a kernel (only a const table with its initialiser is); pass it as a parameter}} [-Wgpufuse-global]
}

// a table named whole, as a pointer
GPUFUSE void whole(int n, const float *restrict x, float *restrict y)
{
    static const float w[2] = {2.0f, 1.0f};
    for (int i = 0; i < n; i++)
        y[i] = *(w + (i & 1)) * x[i]; // expected-warning {{dereference of something other than a pointer parameter}} [-Wgpufuse-pointer]
}
