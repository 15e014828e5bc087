#!/usr/bin/env python3
"""Fit the sm90 tile heuristic's cost model to a sweep of every tile configuration.

The sweep is a graphgemm_bench JSON run with one `sm90=<kernel>` backend per tile plus `cublaslt`
(e.g. bench/results/h100/tune_tiles_bf16.json). The model (src/backends/sm90_heuristic.cpp):

    cost(tile) = waves * BM * BN * (K / efficiency(tile) + overhead)            (cooperative)
    cost(tile) = (waves * (K / efficiency(tile) + pp_tile) + pp_once) * BM * BN  (ping-pong, "_pp")

The fit maximizes the geometric mean over shapes of cuBLASLt time / time of the chosen tile, by
exhaustive search over a coarse grid (about a minute); it reports the oracle (best tile per shape) and a two-fold cross-validation (fit on
alternate shapes, score on the others) so that the constants do not just memorize the suite.
With ping-pong tiles in the sweep the fit has two stages (the joint grid would be too large): the
cooperative constants on the cooperative tiles alone, then, with those fixed, the ping-pong
efficiencies and pp_tile / pp_once on all tiles.

Usage: python3 tools/fit_sm90_heuristic.py SWEEP.json [--sms 132]
"""
import argparse
import itertools
import json
import math
import re

TILE = re.compile(r"sm90=sm90_\w+?_\w+?_(\d+)x(\d+)x64_s\d+_c(\d)x(\d)(_pp)?(?:_b[kn])?$")


def load(path):
    rows = json.load(open(path))["rows"]
    tiles = {}
    for b in rows[0]["us"]:
        m = TILE.match(b)
        if m:
            bm, bn, cm, cn = map(int, m.groups()[:4])
            tiles[b] = (bm, bn, cm * cn, m.group(5) is not None, cm, cn)
    return rows, tiles


# Ping-pong candidates only below this much work (sm90_heuristic.cpp's kPingpongMaxFlops).
PINGPONG_MAX_FLOPS = 1.6e12


def choose(r, tiles, eff, overhead, sms, pp=(2048, 1536)):
    """overhead: the cooperative per-tile constant; pp: (per tile, once per CTA) for ping-pong."""
    best = None
    for name, (bm, bn, cluster, pingpong, cm, cn) in tiles.items():
        if pingpong and 2.0 * r["M"] * r["N"] * r["K"] > PINGPONG_MAX_FLOPS:
            continue
        # Cluster tiles, one per cluster at a time (as sm90_heuristic.cpp's cluster_waves).
        waves = math.ceil(math.ceil(r["M"] / (bm * cm)) * math.ceil(r["N"] / (bn * cn)) / (sms // cluster))
        if pingpong:
            cost = (waves * (r["K"] / eff[name] + pp[0]) + pp[1]) * bm * bn
        else:
            cost = waves * bm * bn * (r["K"] / eff[name] + overhead)
        if best is None or cost < best[0] * (1 - 1e-9):
            best = (cost, name)
    return best[1]


def score(rows, tiles, eff, overhead, sms, pp=(2048, 1536)):
    return math.exp(sum(math.log(r["us"]["cublaslt"] / r["us"][choose(r, tiles, eff, overhead, sms, pp)]) for r in rows) / len(rows))


def fit(rows, tiles, sms):
    """Cooperative constants, then (if the sweep has any) the ping-pong ones with those fixed.
    Returns (score, (eff, overhead, pp))."""
    coop = {n: t for n, t in tiles.items() if not t[3]}
    s, (eff, overhead) = fit_cooperative(rows, coop, sms)
    pp_tiles = sorted(n for n, t in tiles.items() if t[3])
    pp = (2048, 1536)
    if not pp_tiles:
        return s, (eff, overhead, pp)
    best = (0.0, None)
    steps = [0.55 + 0.05 * i for i in range(10)]  # 0.55 .. 1.0
    for values in itertools.product(*[steps for _ in pp_tiles]):
        e = dict(eff, **dict(zip(pp_tiles, values)))
        for pp_tile in [0, 512, 1024, 2048, 3072]:
            for pp_once in [0, 1536, 3072]:
                sc = score(rows, tiles, e, overhead, sms, (pp_tile, pp_once))
                if sc > best[0]:
                    best = (sc, (e, overhead, (pp_tile, pp_once)))
    return best


def fit_cooperative(rows, tiles, sms):
    """Exhaustive search over a coarse grid: the largest tile is the reference (efficiency 1)."""
    names = sorted(tiles, key=lambda n: (-tiles[n][0] * tiles[n][1], -tiles[n][2]))
    steps = [0.55 + 0.05 * i for i in range(9)]  # 0.55 .. 0.95
    grids = [[1.0]] + [[1.0] + steps for _ in names[1:]]
    best = (0.0, None)
    for values in itertools.product(*grids):
        eff = dict(zip(names, values))
        for overhead in [0, 512, 1024, 2048, 3072, 4096]:
            s = score(rows, tiles, eff, overhead, sms)
            if s > best[0]:
                best = (s, (eff, overhead))
    return best


def main():
    p = argparse.ArgumentParser()
    p.add_argument("sweep")
    p.add_argument("--sms", type=int, default=132)
    a = p.parse_args()
    rows, tiles = load(a.sweep)
    oracle = math.exp(sum(math.log(max(r["us"]["cublaslt"] / r["us"][t] for t in tiles)) for r in rows) / len(rows))
    s, (eff, overhead, pp) = fit(rows, tiles, a.sms)
    print(f"oracle {oracle:.4f}  fitted {s:.4f}  overhead {overhead}  ping-pong per tile {pp[0]}, once {pp[1]}")
    for n, v in eff.items():
        print(f"  {n:45s} efficiency {v:.2f}")
    for name, train, test in [("even", rows[0::2], rows[1::2]), ("odd", rows[1::2], rows[0::2])]:
        st, (e, o, q) = fit(train, tiles, a.sms)
        print(f"fit on {name} shapes {st:.4f} -> held-out {score(test, tiles, e, o, a.sms, q):.4f}")


if __name__ == "__main__":
    main()
