#!/usr/bin/env python3
"""Draw throughput against shape, one line per backend, from graphgemm_bench's JSON files.

Usage: python3 bench/plot.py RESULTS_DIR   (writes RESULTS_DIR/gemm_<dtype>.png for each gemm_<dtype>.json)
"""
import json
import pathlib
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def plot(path: pathlib.Path) -> pathlib.Path:
    data = json.loads(path.read_text())
    rows = sorted(data["rows"], key=lambda r: 2.0 * r["M"] * r["N"] * r["K"])
    backends = list(rows[0]["us"].keys()) if rows else []
    labels = [f'{r["name"]} {r["M"]}x{r["N"]}x{r["K"]}' for r in rows]
    x = range(len(rows))
    tflops = lambda r, us: 2.0 * r["M"] * r["N"] * r["K"] / (us * 1e-6) / 1e12 if us else float("nan")
    fig, ax = plt.subplots(figsize=(max(10, len(rows) * 0.16), 6))
    ax.plot(x, [tflops(r, r["floor_us"]) for r in rows], "k--", linewidth=1, label="floor (roofline)")
    for b in backends:
        # The speed of light (backend sol...) does no arithmetic: its line is the GEMM rate that
        # would match it, a ceiling like the floor's.
        style = dict(linestyle=":", linewidth=1) if b.startswith("sol") else dict(marker=".", linewidth=1)
        ax.plot(x, [tflops(r, r["us"][b]) for r in rows], label=b + (" (speed of light)" if b.startswith("sol") else ""), **style)
    ax.set_yscale("log")
    ax.set_ylabel("T(FL)OP/s (log)")
    ax.set_xticks(list(x))
    ax.set_xticklabels(labels, rotation=90, fontsize=5)
    peak = f'peak {data["peak_tflops"]:.0f} T/s' if data["peak_tflops"] is not None else "peak not measured"
    ax.set_title(f'{data["dtype"]} -> {data["out_dtype"]} GEMM on {data["device"]["name"]} '
                 f'(copy {data["copy_bandwidth_gbps"]:.0f} GB/s, {peak})')
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    out = path.with_suffix(".png")
    fig.savefig(out, dpi=130)
    plt.close(fig)
    return out


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    files = sorted(pathlib.Path(sys.argv[1]).glob("gemm_*.json"))
    if not files:
        print(f"no gemm_*.json in {sys.argv[1]}")
        return 1
    for f in files:
        print("wrote", plot(f))
    return 0


if __name__ == "__main__":
    sys.exit(main())
