#!/usr/bin/env python3
"""report_libs.py LIBS.jsonl OUT.md - the library benchmark as a markdown
table: one row per workload, one column per implementation, each cell
"ms (TFLOP/s or GB/s)"; wrong results marked, failures listed.  The CPU
column is plain C (gcc -O3 -fopenmp); its sgemm figure is measured at
n=2000 and scaled (see the note).  The form_* lines of bench_forms get a
table of their own: gpufuse's launcher beside the same cuBLAS calls made
directly, and their ratio (issue 15's bar: >= 0.9).  Only numbers in the
input are shown."""
import json
import sys

WORKLOADS = [("sgemm_10000", "SGEMM 10000^3 f32", "tflops"),
             ("fft2_1024_c64", "FFT2 1024x1024 complex64", "ms"),
             ("gemm_bias_relu_8192", "GEMM+bias+ReLU 8192^3 f32", "tflops"),
             ("sqrt_1e8", "sqrt of 1e8 floats", "gbs"),
             ("fft_power_2e24_c64", "window, FFT, |X|^2, 2^24 complex64", "ms"),
             ("fft_conv_2e24_c64", "FFT convolution, 2^24 complex64", "ms")]
IMPLS = ["gpufuse", "cupy", "torch", "torch.compile", "c_openmp", "numpy"]


def cell(r, unit):
    if r.get("ms") is None:
        return "failed"
    s = "%.4g ms" % r["ms"]
    if unit == "tflops" and r.get("tflops"):
        s = "%.3g TFLOP/s (%s)" % (r["tflops"], s)
    elif unit == "gbs" and r.get("gbs"):
        s = "%.4g GB/s (%s)" % (r["gbs"], s)
    if not r.get("ok"):
        s += " WRONG"
    return s


def forms_table(rows):
    """BLAS forms: gpufuse vs the direct cuBLAS calls."""
    forms = [r for r in rows if str(r.get("workload", "")).startswith("form_")]
    if not forms:
        return []
    out = ["", "## BLAS-shaped nests vs the same cuBLAS calls made directly", "",
           "| form | gpufuse | cuBLAS direct | ratio (direct/gpufuse) | calls made directly | check |",
           "|---|---|---|---|---|---|"]
    for r in forms:
        def ms(key, tf):
            return "%.4g ms (%.3g TFLOP/s)" % (r[key], r[tf]) if r.get(key) is not None and r.get(tf) else "failed"
        ratio = "%.3f%s" % (r["ratio"], "" if r["ratio"] >= 0.9 else " BELOW 0.9") if r.get("ratio") else "-"
        check = "ok (%.2g <= %.2g)" % (r["max_err"], r["tol"]) if r.get("ok") else "WRONG or failed"
        out.append("| %s | %s | %s | %s | %s | %s |" % (r["workload"][5:], ms("ms", "tflops"),
                                                       ms("cublas_ms", "cublas_tflops"), ratio,
                                                       str(r.get("note", "")).replace("direct: ", ""), check))
    return out


def main():
    rows = []
    for line in open(sys.argv[1]):
        line = line.strip()
        if line.startswith("{"):
            try:
                rows.append(json.loads(line))
            except ValueError:
                pass
    by = {(r.get("workload"), r.get("impl")): r for r in rows}
    impls = [i for i in IMPLS if any(k[1] == i for k in by)]
    out = ["# gpufuse library calls vs peers", "",
           "| workload | " + " | ".join(impls) + " |", "|---" * (len(impls) + 1) + "|"]
    for w, desc, unit in WORKLOADS:
        cells = [cell(by[(w, i)], unit) if (w, i) in by else "-" for i in impls]
        out.append("| %s | %s |" % (desc, " | ".join(cells)))
    out += forms_table(rows)
    out += ["", "Notes:", ""]
    for r in rows:
        if str(r.get("workload", "")).startswith("form_") and not r.get("err"):
            continue
        if r.get("note") or r.get("err"):
            out.append("* %s / %s: %s%s" % (r.get("workload"), r.get("impl"), r.get("note") or "",
                                            ("; ERROR: %s" % r["err"]) if r.get("err") else ""))
    open(sys.argv[2], "w").write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
