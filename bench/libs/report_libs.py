#!/usr/bin/env python3
"""report_libs.py LIBS.jsonl OUT.md - the library benchmark as a markdown
table: one row per workload, one column per implementation, each cell
"ms (TFLOP/s or GB/s)"; wrong results marked, failures listed.  The CPU
column is plain C (gcc -O3 -fopenmp); its sgemm figure is measured at
n=2000 and scaled (see the note).  Only numbers in the input are shown."""
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
    out += ["", "Notes:", ""]
    for r in rows:
        if r.get("note") or r.get("err"):
            out.append("* %s / %s: %s%s" % (r.get("workload"), r.get("impl"), r.get("note") or "",
                                            ("; ERROR: %s" % r["err"]) if r.get("err") else ""))
    open(sys.argv[2], "w").write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
