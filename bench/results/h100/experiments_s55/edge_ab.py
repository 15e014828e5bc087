#!/usr/bin/env python3
"""Session 55: cuBLASLt / automatic per row, new build against old (alternate calls), for the rows
whose automatic tile (B N x K) has a partial last N tile (N % BN != 0, N >= BN: the rows session
55's change moves) and, as a control, the others. Usage: edge_ab.py NEW_DIR OLD_DIR (each with
grid_r1, grid_r2, suites)."""
import json, math, re, sys

def rows(d):
    out = {}
    for sub, f in (("grid_r1", "gemm_bf16.json"), ("grid_r2", "gemm_bf16.json"), ("suites", "gemm_bf16.json")):
        for r in json.load(open(f"{d}/{sub}/{f}"))["rows"]:
            key = (r.get("name", r["suite"]), r["M"], r["N"], r["K"])
            out.setdefault(key, []).append(r)
    return out

new, old = rows(sys.argv[1]), rows(sys.argv[2])
gm = lambda xs: math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")
groups = {"partial last N tile": [], "control": []}
print(f"{'row':40s} {'tile':24s} {'valid/BN':>8s} {'old lt/ours':>12s} {'new lt/ours':>12s} {'new/old':>7s}")
for k in sorted(new, key=lambda k: (k[0], k[1])):
    if k not in old: continue
    cfg = new[k][0]["config"]["sm90"]
    m = re.search(r"_(\d+)x(\d+)x64_s\d+_c(\d)x(\d)(_pp)?_bk", cfg)
    if not m or "split-K none" not in cfg and "stream_k" not in cfg and "serial" not in cfg and "parallel" not in cfg: pass
    if not m: continue
    bn = int(m.group(2)); n = k[2]
    partial = n % bn != 0 and n >= bn
    r_new = gm([r["us"]["cublaslt"] / r["us"]["sm90"] for r in new[k]])
    r_old = gm([r["us"]["cublaslt"] / r["us"]["sm90"] for r in old[k]])
    groups["partial last N tile" if partial else "control"].append(r_new / r_old)
    if partial:
        print(f"{k[0] + ' ' + 'x'.join(map(str, k[1:])):40s} {m.group(0)[1:]:24s} {(n % bn)}/{bn:<5d} {r_old:12.3f} {r_new:12.3f} {r_new / r_old:7.3f}")
for g, v in groups.items():
    print(f"{g}: {len(v)} rows, geomean of (new lt/ours) / (old lt/ours) {gm(v):.3f}, min {min(v):.3f}, max {max(v):.3f}")
