#!/usr/bin/env python3
"""report.py - turns the JSON lines of a benchmark run into a table and a chart.

  report.py RESULTS.jsonl [--md OUT.md] [--png OUT.png] [--meta META.txt]

The markdown table has one row per workload and one column per
implementation, each cell "GB/s (ms)"; then the measured device copy
bandwidth, and per workload the winner and gpufuse's share of the
hand-written CUDA figure.  Measurements whose result was wrong are marked,
failed ones listed with their error.  The PNG (matplotlib, Agg) shows each
implementation's GB/s as a share of the copy bandwidth, per workload.
Only numbers present in the input are shown: nothing is invented.
"""
import argparse
import json
import math
import sys

WORKLOADS = ["chain", "dot", "softmax", "softmax_short", "layernorm", "sqrt", "jacobi",
             "blackscholes"]
IMPLS = ["gpufuse", "gpufuse-opt", "cuda", "torch.compile", "torch", "jax.jit", "cupy.fuse", "cupy"]
DESCRIBE = {
    "chain": "sqrt(a*a+b*b)*exp(-c)+sin(a)*0.5, 2^28",
    "dot": "sum(a*b), 2^28",
    "softmax": "row softmax 16384x4096",
    "softmax_short": "row softmax 1048576x128",
    "layernorm": "row layernorm 16384x4096",
    "sqrt": "sqrt, 1e8",
    "jacobi": "5-point Jacobi 8192^2, 10 sweeps",
    "blackscholes": "Black-Scholes call+put, 2^26",
}


def load(path):
    recs, bad = [], 0
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line.startswith("{"):
                continue
            try:
                r = json.loads(line)
            except json.JSONDecodeError:
                bad += 1
                print("report: %s:%d: not JSON, skipped" % (path, n), file=sys.stderr)
                continue
            if isinstance(r, dict) and r.get("workload") and r.get("impl"):
                recs.append(r)
    return recs, bad


def num(v):
    return v if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) else None


def index(recs):
    """(workload, impl) -> record; a later line replaces an earlier one."""
    out = {}
    for r in recs:
        out[(r["workload"], r["impl"])] = r
    return out


def fmt_gbs(g):
    return "%.0f" % g if g >= 100 else "%.3g" % g


def cell(r):
    if r is None:
        return "—"
    g, ms = num(r.get("gbs")), num(r.get("ms"))
    if g is None or ms is None:
        return "failed"
    s = "%s GB/s (%.3g ms)" % (fmt_gbs(g), ms)
    return s if r.get("ok") else s + " **wrong**"


def columns(idx):
    present = {i for (_, i) in idx}
    cols = [i for i in IMPLS if i in present]
    cols += sorted(i for i in present if i not in IMPLS and i != "copy")
    return cols


def rows_of(idx):
    present = {w for (w, _) in idx if w != "copy"}
    return [w for w in WORKLOADS if w in present] + sorted(present - set(WORKLOADS))


def good(r):
    return r is not None and r.get("ok") and num(r.get("gbs")) is not None


def markdown(recs, meta=None):
    idx = index(recs)
    cols, rows = columns(idx), rows_of(idx)
    copy = idx.get(("copy", "copy"))
    copy_gbs = num(copy.get("gbs")) if copy else None
    L = ["# gpufuse benchmark results", ""]
    if meta:
        L += ["Machine: " + meta.strip(), ""]
    L += ["GB/s counts the bytes each workload must read and write once (f32); "
          "time is the median of the timed repetitions. **wrong** marks a result "
          "outside the tolerance (see docs/performance.md).", ""]
    if copy_gbs:
        L += ["Device copy bandwidth (cudaMemcpy D2D of 1 GiB, read + write): "
              "**%s GB/s** (%.3g ms)." % (fmt_gbs(copy_gbs), num(copy.get("ms")) or 0), ""]
    else:
        L += ["Device copy bandwidth: not measured.", ""]
    L.append("| workload | " + " | ".join(cols) + " |")
    L.append("| --- |" + " --- |" * len(cols))
    for w in rows:
        name = "%s (%s)" % (w, DESCRIBE[w]) if w in DESCRIBE else w
        L.append("| " + name + " | " + " | ".join(cell(idx.get((w, c))) for c in cols) + " |")
    L += ["", "| workload | winner | gpufuse / hand-written CUDA | gpufuse / copy |",
          "| --- | --- | --- | --- |"]
    for w in rows:
        ok = [(num(idx[(w, c)]["gbs"]), c) for c in cols if good(idx.get((w, c)))]
        win = "%s (%s GB/s)" % (max(ok)[1], fmt_gbs(max(ok)[0])) if ok else "—"
        gf, cu = idx.get((w, "gpufuse")), idx.get((w, "cuda"))
        share = "%.1f%%" % (100 * num(gf["gbs"]) / num(cu["gbs"])) if good(gf) and good(cu) else "—"
        of_copy = "%.1f%%" % (100 * num(gf["gbs"]) / copy_gbs) if good(gf) and copy_gbs else "—"
        L.append("| %s | %s | %s | %s |" % (w, win, share, of_copy))
    fails = [r for r in recs if not r.get("ok") and r.get("impl") != "copy"]
    if fails:
        L += ["", "## Failed or wrong measurements", ""]
        groups = {}                 # one line per implementation and error
        for r in fails:
            groups.setdefault((r["impl"], r.get("err") or "failed"), []).append(r["workload"])
        for (impl, err), ws in groups.items():
            L.append("* %s (%s): %s" % (impl, ", ".join(ws), err))
    notes = sorted({(r["impl"], r["workload"], r["note"]) for r in recs if r.get("note")})
    if notes:
        L += ["", "## Notes", ""]
        for impl, w, n in notes:
            L.append("* %s / %s: %s" % (impl, w, n))
    return "\n".join(L) + "\n"


def chart(recs, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    idx = index(recs)
    cols, rows = columns(idx), rows_of(idx)
    copy = idx.get(("copy", "copy"))
    copy_gbs = num(copy.get("gbs")) if copy else None
    scale = 100.0 / copy_gbs if copy_gbs else 1.0
    fig, ax = plt.subplots(figsize=(max(8, 1.6 * len(rows) + 2), 5.5))
    width = 0.8 / max(1, len(cols))
    for k, c in enumerate(cols):
        xs, ys, hatch = [], [], []
        for i, w in enumerate(rows):
            r = idx.get((w, c))
            if r is not None and num(r.get("gbs")) is not None:
                xs.append(i - 0.4 + width * (k + 0.5))
                ys.append(num(r["gbs"]) * scale)
                hatch.append("" if r.get("ok") else "//")
        bars = ax.bar(xs, ys, width, label=c)
        for b, h in zip(bars, hatch):
            b.set_hatch(h)
    if copy_gbs:
        ax.axhline(100, color="black", lw=0.8, ls="--")
        ax.set_ylabel("GB/s as %% of device copy (%s GB/s)" % fmt_gbs(copy_gbs))
    else:
        ax.set_ylabel("GB/s (no copy bandwidth measured)")
    ax.set_xticks(range(len(rows)))
    ax.set_xticklabels(rows)
    ax.set_title("gpufuse vs peers, effective bandwidth (hatched: result out of tolerance)")
    ax.legend(ncol=max(1, len(cols)), fontsize=8, loc="upper center",
              bbox_to_anchor=(0.5, -0.07), frameon=False)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main(argv=None):
    ap = argparse.ArgumentParser(description="Markdown table and chart of bench results.")
    ap.add_argument("results")
    ap.add_argument("--md")
    ap.add_argument("--png")
    ap.add_argument("--meta", help="a text file describing the machine")
    o = ap.parse_args(argv)
    recs, _ = load(o.results)
    if not recs:
        print("report: no measurements in %s" % o.results, file=sys.stderr)
        return 1
    meta = open(o.meta).read() if o.meta else None
    md = markdown(recs, meta)
    if o.md:
        with open(o.md, "w") as f:
            f.write(md)
    else:
        sys.stdout.write(md)
    if o.png:
        chart(recs, o.png)
    return 0


if __name__ == "__main__":
    sys.exit(main())
