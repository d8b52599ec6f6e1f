// A helper becomes C++ (a __host__ __device__ function): C that C++ refuses
// is diagnosed at the call, naming the helper and what to write instead; the
// function keeps its CPU body.  Layouts the generated struct cannot reproduce
// are refused too.
#include <gpufuse.h>
#include <stddef.h>

static float first(float v) { float t[1] = {v}; void *p = t; float *f = p; return f[0]; }
static float vla(int n, float v) { float t[n]; t[0] = v; return t[0]; }
static float named(float v) { const char *s = "ab"; return v + (float)s[1]; }
static float y0(float v) { return v; }
static float renamed(float v) { float y0f = y0(v); { float y0 = y0f; v = y0; } return v; }
static const float TAB[2] = {1.0f, 2.0f};
static float clash(float v) { float r = TAB[1]; { float TAB = v; r += TAB; } return r; }
static float jumps(float v) { if (v > 0) goto out; v = -v; out: return v; }
static float shadow(float v) { float max = v; { float gf_tmp = max; max = gf_tmp; } return max; }

#pragma pack(push, 2)
struct pk2 { char c; float f; };
#pragma pack(pop)
struct fa { char c; float f __attribute__((aligned(8))); };

GPUFUSE void c_only(int n, float *restrict x)
{
    for (int i = 0; i < n; i++)
        x[i] = first(x[i]); // expected-warning {{helper 'first' converts 'void *' to 'float *' implicitly, which C++ does not allow; write the cast}} [-Wgpufuse-call]
}

GPUFUSE void var_len(int n, float *restrict x)
{
    for (int i = 0; i < n; i++)
        x[i] = vla(4, x[i]); // expected-warning {{helper 'vla' declares a variable-length array, which CUDA device code cannot have}} [-Wgpufuse-call]
}

GPUFUSE void strings(int n, float *restrict x)
{
    for (int i = 0; i < n; i++)
        x[i] = named(x[i]); // expected-warning {{helper 'named' uses a string literal, which a kernel cannot use}} [-Wgpufuse-call]
}

GPUFUSE void jumpy(int n, float *restrict x)
{
    for (int i = 0; i < n; i++)
        x[i] = jumps(x[i]); // expected-warning {{helper 'jumps' uses 'goto'; write structured control flow}} [-Wgpufuse-call]
}

GPUFUSE void shadows(int n, float *restrict x)
{
    for (int i = 0; i < n; i++)
        x[i] = shadow(x[i]) + renamed(x[i]);
}

GPUFUSE void clashes(int n, float *restrict x)
{
    for (int i = 0; i < n; i++)
        x[i] = clash(x[i]); // expected-warning {{helper 'clash' uses the name 'TAB' for two things that CUDA code must name differently; rename one of them}} [-Wgpufuse-call]
}

GPUFUSE void packed2(int n, struct pk2 *p) // expected-warning {{struct pk2 has a layout (#pragma pack, aligned fields) that gpufuse cannot reproduce in CUDA}} [-Wgpufuse-type]
{
    for (int i = 0; i < n; i++)
        p[i].f = p[i].f + 1.0f;
}

GPUFUSE void aligned_field(int n, struct fa *p) // expected-warning {{field 'f' of struct fa has an alignment attribute that gpufuse cannot reproduce in CUDA}} [-Wgpufuse-type]
{
    for (int i = 0; i < n; i++)
        p[i].f = p[i].f + 1.0f;
}
