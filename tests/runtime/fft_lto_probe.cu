/* fft_lto_probe.cu - standalone probe of cuFFT LTO callbacks (CUDA 13,
 * cufftXtSetJITCallback), no gpufuse code.  Not part of the build: run by
 * hand on a GPU machine with tests/runtime/fft_lto_probe.sh.
 *
 * Every variant makes its own plan (errors are printed, never fatal) and
 * prints one line:
 *   <variant> | set=<status> make=<status> exec=<status> | <PASS|FAIL err=...|->
 * A variant is (how the LTO-IR was made) x (the callback's source) x (the
 * planner, the callback kind, where the caller-info array lives).  The
 * callback scales every element by the float/double that the caller info
 * points to (2): a load callback scales the input, a store callback the
 * spectrum; the result is checked against a CPU DFT of 2*x (n = 1024).
 *
 * Usage: fft_lto_probe [DIR]   DIR holds the nvcc-made LTO-IR named
 * <source>_<arch>.fatbin and <source>_o<arch>.o (fft_lto_probe.sh makes
 * them); without DIR only the NVRTC variants run.
 *        fft_lto_probe --write-sources DIR   writes <source>.cu there. */
#include <cuda_runtime.h>
#include <cufft.h>
#include <cufftXt.h>
#include <nvrtc.h>

#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <string>
#include <vector>

static const char *cufft_str(cufftResult r)
{
    switch ((int)r) {
    case 0: return "OK";
    case 1: return "INVALID_PLAN";
    case 2: return "ALLOC_FAILED";
    case 3: return "INVALID_TYPE";
    case 4: return "INVALID_VALUE";
    case 5: return "INTERNAL_ERROR";
    case 6: return "EXEC_FAILED";
    case 7: return "SETUP_FAILED";
    case 8: return "INVALID_SIZE";
    case 9: return "UNALIGNED_DATA";
    case 11: return "INVALID_DEVICE";
    case 13: return "NO_WORKSPACE";
    case 14: return "NOT_IMPLEMENTED";
    case 16: return "NOT_SUPPORTED";
    case 17: return "MISSING_DEPENDENCY";
    case 18: return "NVRTC_FAILURE";
    case 19: return "NVJITLINK_FAILURE";
    case 20: return "NVSHMEM_FAILURE";
    default: return "?";
    }
}

/* ---- callback sources ---------------------------------------------------- */
/* The same callbacks in four spellings.  Symbols: pr_load_c / pr_store_c
 * (single), pr_load_z / pr_store_z (double).  Each scales by *(T *)info. */
#define BODY_C                                                                                              \
    "{ float s = *(const float *)info; float2 v = ((const float2 *)d)[off]; float2 r; r.x = s * v.x;"      \
    " r.y = s * v.y; return r; }\n"
#define BODY_Z                                                                                              \
    "{ double s = *(const double *)info; double2 v = ((const double2 *)d)[off]; double2 r; r.x = s * v.x;" \
    " r.y = s * v.y; return r; }\n"
#define SBODY_C "{ float s = *(const float *)info; e.x *= s; e.y *= s; ((float2 *)d)[off] = e; }\n"
#define SBODY_Z "{ double s = *(const double *)info; e.x *= s; e.y *= s; ((double2 *)d)[off] = e; }\n"
#define SIGS(PFX, T2C, T2Z)                                                                                 \
    PFX T2C " pr_load_c(void *d, unsigned long long off, void *info, void *sh)\n" BODY_C                   \
    PFX T2Z " pr_load_z(void *d, unsigned long long off, void *info, void *sh)\n" BODY_Z                   \
    PFX "void pr_store_c(void *d, unsigned long long off, " T2C " e, void *info, void *sh)\n" SBODY_C      \
    PFX "void pr_store_z(void *d, unsigned long long off, " T2Z " e, void *info, void *sh)\n" SBODY_Z

struct Source {
    const char *name;
    const char *code;
    int needs_include;           /* NVRTC needs -I<cuda>/include */
};

static const Source sources[] = {
    /* what gpufuse emits today (compiler/back/emit_fftcb.c) */
    {"externC", "#pragma nv_diag_suppress 550\n" SIGS("extern \"C\" __device__ ", "float2", "double2"), 0},
    /* C++ linkage, as NVIDIA's samples (cuFFT/lto_callback_window_1d) */
    {"cxx", "#pragma nv_diag_suppress 550\n" SIGS("__device__ ", "float2", "double2"), 0},
    /* C++ linkage with cuFFT's own types, exactly the samples' spelling */
    {"cxxhdr", "#include <cufftXt.h>\n#pragma nv_diag_suppress 550\n" SIGS("__device__ ", "cufftComplex",
                                                                          "cufftDoubleComplex"), 1},
    /* extern "C" with cuFFT's types */
    {"externChdr", "#include <cufftXt.h>\n#pragma nv_diag_suppress 550\n" SIGS("extern \"C\" __device__ ",
                                                                              "cufftComplex",
                                                                              "cufftDoubleComplex"), 1},
};
enum { NSRC = sizeof sources / sizeof sources[0] };

/* ---- LTO-IR producers ---------------------------------------------------- */

static std::string cuda_include = "/usr/local/cuda/include";

static bool nvrtc_lto(const Source &s, const std::vector<std::string> &opts, std::vector<char> &out, std::string &why)
{
    nvrtcProgram prog;
    if (nvrtcCreateProgram(&prog, s.code, "probe_cb.cu", 0, NULL, NULL) != NVRTC_SUCCESS) {
        why = "nvrtcCreateProgram failed";
        return false;
    }
    std::vector<std::string> all = opts;
    if (s.needs_include)
        all.push_back("-I" + cuda_include);
    std::vector<const char *> o;
    for (auto &x : all)
        o.push_back(x.c_str());
    nvrtcResult r = nvrtcCompileProgram(prog, (int)o.size(), o.data());
    size_t ln = 0;
    nvrtcGetProgramLogSize(prog, &ln);
    std::string log(ln + 1, '\0');
    nvrtcGetProgramLog(prog, &log[0]);
    bool ok = false;
    if (r != NVRTC_SUCCESS) {
        why = std::string("nvrtc: ") + nvrtcGetErrorString(r) + ": " + log.substr(0, 300);
    } else {
        size_t n = 0;
        if (nvrtcGetLTOIRSize(prog, &n) != NVRTC_SUCCESS || !n) {
            why = "no LTO-IR";
        } else {
            out.resize(n);
            ok = nvrtcGetLTOIR(prog, out.data()) == NVRTC_SUCCESS;
            if (!ok)
                why = "nvrtcGetLTOIR failed";
        }
    }
    nvrtcDestroyProgram(&prog);
    for (auto &c : why)
        if (c == '\n')
            c = ' ';
    return ok;
}

static bool read_file(const std::string &path, std::vector<char> &out)
{
    FILE *f = fopen(path.c_str(), "rb");
    if (!f)
        return false;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    out.resize(n > 0 ? n : 0);
    bool ok = n > 0 && fread(out.data(), 1, n, f) == (size_t)n;
    fclose(f);
    return ok;
}

/* ---- one variant ------------------------------------------------------------ */

enum Planner { P_PLAN1D, P_MANY, P_MANY64, P_XTMANY };
static const char *planner_name[] = {"MakePlan1d", "MakePlanMany", "MakePlanMany64", "XtMakePlanMany"};

static const int N = 1024;
static void *d_data, *d_info_f, *d_info_d;
static std::vector<double> ref_re, ref_im;   /* DFT of 2*x */
static std::vector<double> x_re, x_im;
static int npass, nrun;

/* gpufuse's pattern: the caller-info array lives on the stack of a function
 * that returns before the plan is made (runtime/fft.c make_cb_plan). */
static __attribute__((noinline)) cufftResult set_cb_stack(cufftHandle h, const char *sym, const void *ir, size_t n,
                                                          cufftXtCallbackType t, void *info)
{
    void *ci[1] = {info};
    cufftResult r = cufftXtSetJITCallback(h, sym, ir, n, t, ci);
    return r;
}

static __attribute__((noinline)) void clobber_stack(void)
{
    volatile char junk[4096];
    for (int i = 0; i < 4096; i++)
        junk[i] = (char)0xA5;
    (void)junk[17];
}

static void run_variant(const std::string &label, const std::vector<char> &ir, bool dbl, bool store, Planner pl,
                        bool stack_info, bool both = false, const std::vector<char> *ir2 = NULL)
{
    const std::vector<char> &irs = ir2 ? *ir2 : ir; /* the store callback's LTO-IR when both are set */
    nrun++;
    const char *sym = dbl ? (store ? "pr_store_z" : "pr_load_z") : (store ? "pr_store_c" : "pr_load_c");
    cufftXtCallbackType t = dbl ? (store ? CUFFT_CB_ST_COMPLEX_DOUBLE : CUFFT_CB_LD_COMPLEX_DOUBLE)
                                : (store ? CUFFT_CB_ST_COMPLEX : CUFFT_CB_LD_COMPLEX);
    std::string name = label + (dbl ? " Z2Z" : " C2C") + (both ? " load+store" : store ? " store" : " load") + " " +
                       planner_name[pl] + (stack_info ? " info=dead-stack" : " info=live");
    static void *live_ci[1];
    live_ci[0] = dbl ? d_info_d : d_info_f;
    cufftHandle h;
    cufftResult rc = cufftCreate(&h), rs = CUFFT_INTERNAL_ERROR, rm = CUFFT_INTERNAL_ERROR, re = CUFFT_INTERNAL_ERROR;
    if (rc != CUFFT_SUCCESS) {
        printf("%-70s | create=%s\n", name.c_str(), cufft_str(rc));
        return;
    }
    if (stack_info) {
        rs = set_cb_stack(h, sym, ir.data(), ir.size(), t, live_ci[0]);
        clobber_stack();
    } else {
        rs = cufftXtSetJITCallback(h, sym, ir.data(), ir.size(), t, live_ci);
    }
    if (both && rs == CUFFT_SUCCESS) /* gpufuse's pattern: both from one LTO-IR */
        rs = cufftXtSetJITCallback(h, dbl ? "pr_store_z" : "pr_store_c", irs.data(), irs.size(),
                                   dbl ? CUFFT_CB_ST_COMPLEX_DOUBLE : CUFFT_CB_ST_COMPLEX, live_ci);
    size_t work = 0;
    cufftType ty = dbl ? CUFFT_Z2Z : CUFFT_C2C;
    if (rs == CUFFT_SUCCESS) {
        int n32 = N;
        long long n64 = N;
        switch (pl) {
        case P_PLAN1D: rm = cufftMakePlan1d(h, N, ty, 1, &work); break;
        case P_MANY: rm = cufftMakePlanMany(h, 1, &n32, NULL, 1, 0, NULL, 1, 0, ty, 1, &work); break;
        case P_MANY64: rm = cufftMakePlanMany64(h, 1, &n64, NULL, 1, 0, NULL, 1, 0, ty, 1, &work); break;
        case P_XTMANY: {
            cudaDataType dt = dbl ? CUDA_C_64F : CUDA_C_32F;
            rm = cufftXtMakePlanMany(h, 1, &n64, NULL, 1, 0, dt, NULL, 1, 0, dt, 1, &work, dt);
            break;
        }
        }
    }
    const char *verdict = "-";
    char err[64] = "";
    if (rs == CUFFT_SUCCESS && rm == CUFFT_SUCCESS) {
        size_t el = dbl ? 16 : 8;
        std::vector<char> host(N * el);
        for (int i = 0; i < N; i++) {
            if (dbl) {
                ((double *)host.data())[2 * i] = x_re[i];
                ((double *)host.data())[2 * i + 1] = x_im[i];
            } else {
                ((float *)host.data())[2 * i] = (float)x_re[i];
                ((float *)host.data())[2 * i + 1] = (float)x_im[i];
            }
        }
        cudaMemcpy(d_data, host.data(), N * el, cudaMemcpyHostToDevice);
        re = dbl ? cufftExecZ2Z(h, (cufftDoubleComplex *)d_data, (cufftDoubleComplex *)d_data, CUFFT_FORWARD)
                 : cufftExecC2C(h, (cufftComplex *)d_data, (cufftComplex *)d_data, CUFFT_FORWARD);
        cudaError_t ce = cudaDeviceSynchronize();
        if (re == CUFFT_SUCCESS && ce == cudaSuccess) {
            cudaMemcpy(host.data(), d_data, N * el, cudaMemcpyDeviceToHost);
            double maxerr = 0, maxref = 0, f = both ? 2.0 : 1.0; /* scaled twice: 4x */
            for (int i = 0; i < N; i++) {
                double gr = dbl ? ((double *)host.data())[2 * i] : ((float *)host.data())[2 * i];
                double gi = dbl ? ((double *)host.data())[2 * i + 1] : ((float *)host.data())[2 * i + 1];
                maxerr = fmax(maxerr, fmax(fabs(gr - f * ref_re[i]), fabs(gi - f * ref_im[i])));
                maxref = fmax(maxref, f * fmax(fabs(ref_re[i]), fabs(ref_im[i])));
            }
            double rel = maxerr / maxref;
            snprintf(err, sizeof err, " relerr=%.2e", rel);
            verdict = rel < (dbl ? 1e-12 : 1e-5) ? "PASS" : "FAIL";
            if (rel < (dbl ? 1e-12 : 1e-5))
                npass++;
        } else {
            snprintf(err, sizeof err, " cuda=%s", cudaGetErrorString(ce));
            verdict = "FAIL";
            cudaGetLastError();
        }
    }
    printf("%-70s | set=%s make=%s exec=%s | %s%s\n", name.c_str(), cufft_str(rs),
           rs == CUFFT_SUCCESS ? cufft_str(rm) : "-", rm == CUFFT_SUCCESS ? cufft_str(re) : "-", verdict, err);
    fflush(stdout);
    cufftDestroy(h);
}

/* ---- environment report ------------------------------------------------------- */

static void report_env(void)
{
    int v = 0;
    cufftGetVersion(&v);
    printf("cuFFT version %d (header CUFFT_VERSION %d)\n", v, CUFFT_VERSION);
    int maj = 0, min = 0;
    nvrtcVersion(&maj, &min);
    printf("NVRTC %d.%d\n", maj, min);
    int rt = 0, drv = 0;
    cudaRuntimeGetVersion(&rt);
    cudaDriverGetVersion(&drv);
    printf("CUDA runtime %d, driver API %d\n", rt, drv);
    Dl_info di;
    if (dladdr((void *)&cufftCreate, &di))
        printf("libcufft: %s\n", di.dli_fname);
    if (dladdr((void *)&nvrtcVersion, &di))
        printf("libnvrtc: %s\n", di.dli_fname);
    void *jl = dlopen("libnvJitLink.so.13", RTLD_NOW | RTLD_LOCAL);
    if (!jl)
        printf("libnvJitLink.so.13: not loadable (%s)\n", dlerror());
    else {
        typedef int (*ver_fn)(unsigned *, unsigned *);
        ver_fn f = (ver_fn)dlsym(jl, "nvJitLinkVersion");
        unsigned a = 0, b = 0;
        if (f && !f(&a, &b))
            printf("libnvJitLink.so.13: version %u.%u", a, b);
        if (f && dladdr((void *)f, &di))
            printf(" at %s", di.dli_fname);
        printf("\n");
    }
    const char *envs[] = {"LD_LIBRARY_PATH", "CUFFT_FORCE_LTO", "CUDA_CACHE_DISABLE", "CUDA_CACHE_PATH", "HOME"};
    for (const char *e : envs)
        printf("%s=%s\n", e, getenv(e) ? getenv(e) : "(unset)");
    int dev = 0;
    cudaDeviceProp p;
    cudaGetDevice(&dev);
    if (cudaGetDeviceProperties(&p, dev) == cudaSuccess)
        printf("device %d: %s sm_%d%d\n", dev, p.name, p.major, p.minor);
}

static void report_maps(const char *when)
{
    FILE *f = fopen("/proc/self/maps", "r");
    if (!f)
        return;
    char line[1024];
    std::vector<std::string> seen;
    while (fgets(line, sizeof line, f)) {
        const char *p = strchr(line, '/');
        if (!p || !(strstr(p, "nvJitLink") || strstr(p, "nvrtc") || strstr(p, "cufft")))
            continue;
        std::string s(p);
        if (!s.empty() && s.back() == '\n')
            s.pop_back();
        bool dup = false;
        for (auto &x : seen)
            dup |= x == s;
        if (!dup)
            seen.push_back(s);
    }
    fclose(f);
    printf("libraries mapped %s:\n", when);
    for (auto &s : seen)
        printf("  %s\n", s.c_str());
}

int main(int argc, char **argv)
{
    if (argc > 2 && !strcmp(argv[1], "--write-sources")) {
        /* the callback sources, for the nvcc-made variants (fft_lto_probe.sh) */
        for (int si = 0; si < NSRC; si++) {
            std::string path = std::string(argv[2]) + "/" + sources[si].name + ".cu";
            FILE *f = fopen(path.c_str(), "w");
            if (!f || fputs(sources[si].code, f) < 0) {
                perror(path.c_str());
                return 1;
            }
            fclose(f);
        }
        return 0;
    }
    const char *dir = argc > 1 ? argv[1] : NULL;
    if (getenv("CUDA_HOME"))
        cuda_include = std::string(getenv("CUDA_HOME")) + "/include";
    setvbuf(stdout, NULL, _IOLBF, 0);
    report_env();
    int dev = 0, major = 0, minor = 0;
    if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) ||
        cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev)) {
        printf("no CUDA device\n");
        return 1;
    }
    int arch = major * 10 + minor;

    /* data, reference (DFT of 2x, forward: e^{-2 pi i jk/n}) */
    x_re.resize(N);
    x_im.resize(N);
    ref_re.assign(N, 0);
    ref_im.assign(N, 0);
    unsigned s = 12345;
    for (int i = 0; i < N; i++) {
        s = s * 1103515245u + 12345u;
        x_re[i] = ((s >> 8) % 2001) / 1000.0 - 1.0;
        s = s * 1103515245u + 12345u;
        x_im[i] = ((s >> 8) % 2001) / 1000.0 - 1.0;
    }
    for (int k = 0; k < N; k++)
        for (int j = 0; j < N; j++) {
            double a = -2.0 * M_PI * (double)((long long)j * k % N) / N;
            ref_re[k] += 2 * (x_re[j] * cos(a) - x_im[j] * sin(a));
            ref_im[k] += 2 * (x_re[j] * sin(a) + x_im[j] * cos(a));
        }
    float two_f = 2.0f;
    double two_d = 2.0;
    cudaMalloc(&d_data, N * 16);
    cudaMalloc(&d_info_f, sizeof two_f);
    cudaMalloc(&d_info_d, sizeof two_d);
    cudaMemcpy(d_info_f, &two_f, sizeof two_f, cudaMemcpyHostToDevice);
    cudaMemcpy(d_info_d, &two_d, sizeof two_d, cudaMemcpyHostToDevice);

    /* baseline: a plain plan (no callback) must work */
    {
        cufftHandle h;
        size_t w;
        cufftCreate(&h);
        cufftResult r = cufftMakePlan1d(h, N, CUFFT_C2C, 1, &w);
        printf("baseline plain C2C MakePlan1d: %s\n", cufft_str(r));
        cufftDestroy(h);
    }

    /* LTO-IR producers */
    struct Prod {
        std::string name;
        std::vector<std::string> opts;   /* NVRTC options; empty name for files */
        bool file;
    };
    char sm[32], cp[32], c75[32];
    snprintf(sm, sizeof sm, "-arch=sm_%d", arch);
    snprintf(cp, sizeof cp, "-arch=compute_%d", arch);
    snprintf(c75, sizeof c75, "-arch=compute_75");
    std::vector<Prod> prods = {
        {std::string("nvrtc[") + sm + " -dlto -rdc=true]", {sm, "-dlto", "-rdc=true"}, false}, /* gpufuse today */
        {std::string("nvrtc[") + cp + " sample-opts]", {cp, "--std=c++11", "--relocatable-device-code=true",
                                                         "-default-device", "-dlto"}, false},
        {"nvrtc[-arch=compute_75 sample-opts]", {c75, "--std=c++11", "--relocatable-device-code=true",
                                                 "-default-device", "-dlto"}, false},
        {std::string("nvrtc[") + sm + " -dlto]", {sm, "-dlto"}, false},
    };
    if (dir) {
        char a[16];
        snprintf(a, sizeof a, "%d", arch);
        prods.push_back({std::string("nvcc[lto_") + a + " -dc -fatbin]", {a}, true});
        prods.push_back({"nvcc[lto_75 -dc -fatbin]", {"75"}, true});
        prods.push_back({std::string("nvcc[-arch=sm_") + a + " -dlto -dc .o]", {std::string("o") + a}, true});
    }

    bool mapped = false;
    for (auto &p : prods) {
        for (int si = 0; si < NSRC; si++) {
            const Source &src = sources[si];
            std::vector<char> ir;
            std::string why;
            bool ok;
            if (p.file) {
                std::string path = std::string(dir) + "/" + src.name + "_" + p.opts[0] +
                                   (p.opts[0][0] == 'o' ? ".o" : ".fatbin");
                ok = read_file(path, ir);
                if (!ok)
                    why = "cannot read " + path;
            } else {
                ok = nvrtc_lto(src, p.opts, ir, why);
            }
            std::string label = p.name + " src=" + src.name;
            if (!ok) {
                printf("%-70s | no LTO-IR: %s\n", label.c_str(), why.c_str());
                continue;
            }
            /* the first pass over each (producer, source): the common case */
            run_variant(label, ir, false, false, P_PLAN1D, false);
            if (!mapped) {
                report_maps("after the first plan with a callback");
                mapped = true;
            }
            run_variant(label, ir, false, true, P_PLAN1D, false);
            run_variant(label, ir, true, false, P_PLAN1D, false);
            run_variant(label, ir, false, false, P_MANY64, false);
            run_variant(label, ir, false, false, P_XTMANY, false);
            run_variant(label, ir, false, false, P_MANY64, true);   /* gpufuse's caller-info pattern */
            run_variant(label, ir, false, false, P_MANY64, true, true);
            run_variant(label, ir, true, false, P_MANY64, true, true);
            if (si == 0 && &p == &prods[0]) {
                run_variant(label, ir, false, false, P_MANY, false);
                run_variant(label, ir, true, true, P_MANY64, false);
            }
        }
    }
    /* load + store on one plan: the same LTO-IR twice (every callback defined
     * in both copies), a byte copy of it (another buffer), or one module per
     * callback (the source guarded with PR_LOAD / PR_STORE) */
    for (int guarded = 0; guarded < 2; guarded++) {
        Source g = sources[1]; /* cxx */
        static std::string gsrc;
        gsrc = std::string("#ifdef PR_LOAD\n") +
               "__device__ float2 pr_load_c(void *d, unsigned long long off, void *info, void *sh)\n" BODY_C
               "__device__ double2 pr_load_z(void *d, unsigned long long off, void *info, void *sh)\n" BODY_Z
               "#endif\n#ifdef PR_STORE\n"
               "__device__ void pr_store_c(void *d, unsigned long long off, float2 e, void *info, void *sh)\n" SBODY_C
               "__device__ void pr_store_z(void *d, unsigned long long off, double2 e, void *info, void *sh)\n" SBODY_Z
               "#endif\n";
        if (guarded)
            g.code = gsrc.c_str();
        std::vector<char> irl, irs;
        std::string why;
        bool ok;
        if (guarded)
            ok = nvrtc_lto(g, {sm, "-dlto", "-rdc=true", "-DPR_LOAD"}, irl, why) &&
                 nvrtc_lto(g, {sm, "-dlto", "-rdc=true", "-DPR_STORE"}, irs, why);
        else
            ok = nvrtc_lto(g, {sm, "-dlto", "-rdc=true"}, irl, why);
        if (!ok) {
            printf("split %d: no LTO-IR: %s\n", guarded, why.c_str());
            continue;
        }
        if (!guarded) {
            std::vector<char> copy = irl;
            run_variant("nvrtc[sm -dlto -rdc] src=cxx one-IR-copied", irl, false, false, P_MANY64, false, true, &copy);
            run_variant("nvrtc[sm -dlto -rdc] src=cxx one-IR-copied", irl, true, false, P_MANY64, false, true, &copy);
        } else {
            run_variant("nvrtc[sm -dlto -rdc] src=cxx IR-per-callback", irl, false, false, P_MANY64, false, true, &irs);
            run_variant("nvrtc[sm -dlto -rdc] src=cxx IR-per-callback", irl, true, false, P_MANY64, false, true, &irs);
            run_variant("nvrtc[sm -dlto -rdc] src=cxx IR-per-callback", irl, false, false, P_PLAN1D, true, true, &irs);
            run_variant("nvrtc[sm -dlto -rdc] src=cxx IR-per-callback", irl, false, false, P_XTMANY, false, true, &irs);
        }
    }
    printf("done: %d of %d variants passed\n", npass, nrun);
    return 0;
}
