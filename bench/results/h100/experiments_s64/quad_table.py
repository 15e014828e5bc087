"""c2x2 / c2x1 (128x256 forced unsplit) and cuBLASLt / each, per shape and geomean per suite group.
Usage: quad_table.py BENCH_JSON...  (bench --out folders' gemm_bf16.json)"""
import json, math, sys

for path in sys.argv[1:]:
    try:
        rows = json.load(open(path))["rows"]
    except Exception as e:  # a timed-out step leaves no JSON: say so and go on
        print(path, "missing:", e)
        continue
    keys = list(rows[0]["us"])
    c21 = next(k for k in keys if "c2x1" in k)
    c22 = next(k for k in keys if "c2x2" in k)
    print(path.split("/")[-2])
    groups = {}
    for r in rows:
        u = r["us"]
        if not u[c21] or not u[c22]:
            print("  n/a", r["name"], r["M"], r["config"][c22][:80])
            continue
        g = r["suite"] if r["suite"] == "square" else "llm M>=1024"
        groups.setdefault(g, []).append((u[c22] / u[c21], u["cublaslt"] / u[c22], u["cublaslt"] / u[c21]))
        print(f"  {r['name']:18s} {r['M']:6d} {r['N']:6d} {r['K']:6d}  c2x2/c2x1 {u[c22]/u[c21]:.3f}"
              f"  cublaslt/c2x2 {u['cublaslt']/u[c22]:.3f}  cublaslt/c2x1 {u['cublaslt']/u[c21]:.3f}")
    for g, v in groups.items():
        gm = lambda i: math.exp(sum(math.log(x[i]) for x in v) / len(v))
        print(f"  {g}: c2x2/c2x1 {gm(0):.3f}, cublaslt/c2x2 {gm(1):.3f}, cublaslt/c2x1 {gm(2):.3f} (n={len(v)})")
