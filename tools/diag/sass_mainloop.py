#!/usr/bin/env python3
"""Per sm90 GEMM kernel in a binary: the consumer main loop's size in SASS (from the k-block's
full-barrier wait to the loop's back branch), its HGMMA count and its R2UR count. R2UR in the main
loop means the stage counter / smem descriptors left the uniform datapath (session 5: a 64-bit
division in the consumer did that, 59 -> 111 instructions per k-block). A `WARPGROUP.DEPBAR.LE gsb0,
0x0` in the loop is a wgmma.wait 0 per k-block (no wgmma overlap), which ptxas injects when it
cannot prove the accumulators untouched (warning C7517; session 9: accumulators passed as b32 to
an asm outside the loop did that). An LDL / STL in the loop is a register spill on every k-block.
Exit status 1 if any kernel's loop has one of these, 77 (skip) without cuobjdump / nvdisasm.

  tools/diag/sass_mainloop.py build/bench/graphgemm_bench [--cuobjdump PATH]
(cuobjdump needs nvdisasm on PATH.) Where the toolkit has neither (this project's build machine),
PyPI's wheels carry both: `pip download --no-deps --index-url https://pypi.org/simple
nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm`, unzip each (python3 -m zipfile -e WHEEL DIR) and put
DIR/nvidia/cu13/bin on PATH; then this runs on a local build before any device time.
"""
import argparse
import re
import shutil
import subprocess
import sys


# HGMMAs further apart than this (instructions) belong to different main loops.
kLoopGap = 200


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--cuobjdump", default="cuobjdump")
    a = ap.parse_args()
    if shutil.which(a.cuobjdump) is None or shutil.which("nvdisasm") is None:
        print(f"skipped: {a.cuobjdump} or nvdisasm not found (CUDA toolkit binaries)")
        return 77  # ctest SKIP_RETURN_CODE
    sass = subprocess.run([a.cuobjdump, "-sass", a.binary], check=True, capture_output=True, text=True).stdout
    bad = 0
    for f in sass.split("\t\tFunction : ")[1:]:
        name = f.split("\n", 1)[0]
        if "sm90_gemm" not in name:
            continue
        lines = [l for l in f.split("\n") if re.search(r"/\*[0-9a-f]{4,6}\*/", l)]
        ins = [re.sub(r"\s+", " ", l.split("*/", 1)[1]).strip() for l in lines]
        addr = [int(re.search(r"/\*([0-9a-f]{4,6})\*/", l).group(1), 16) for l in lines]
        hg = [i for i, s in enumerate(ins) if "HGMMA" in s]
        if not hg:
            continue
        # One main loop per run of HGMMAs: a kernel with two tile configurations (the two-tile
        # GEMM chain) has one per configuration, far apart in the code.
        runs = [[hg[0]]]
        for i in hg[1:]:
            if i - runs[-1][-1] > kLoopGap:
                runs.append([])
            runs[-1].append(i)
        cfg = re.search(r"Config(I.*?E)EEE", name)
        kind = 'pingpong' if 'pingpong' in name else ('swapab' if 'swapab' in name else 'coop')
        for n, run in enumerate(runs):
            start = max(i for i in range(run[0]) if "TRYWAIT" in ins[i])
            end = next(i for i in range(run[-1], len(ins)) if "BRA" in ins[i])
            body = ins[start:end + 1]
            r2ur = sum("R2UR" in s for s in body)
            spills = sum(re.match(r"(@!?U?P\d+ )?(LDL|STL)\b", s) is not None for s in body)
            wait0 = sum("WARPGROUP.DEPBAR.LE gsb0, 0x0" in s for s in body)
            # A run whose next branch jumps forward is a k-block peeled off the loop (session 35's
            # deferred epilogue: its epilogue code runs once a unit, not once a k-block): reported,
            # not counted.
            target = re.search(r"BRA\S* (?:\S+, )?0x([0-9a-f]+)", ins[end])
            peeled = target is not None and int(target.group(1), 16) > addr[end]
            bad += not peeled and (r2ur > 0 or wait0 > 0 or spills > 0)
            label = f"{cfg.group(1) if cfg else name[:60]}" + (f" [loop {n + 1}]" if len(runs) > 1 else "")
            print(f"{kind:8s} {label:60s} "
                  f"{'peeled' if peeled else 'loop  '} {len(body):4d} HGMMA {sum('HGMMA' in s for s in body):2d} "
                  f"R2UR {r2ur} wait0 {wait0}" + (f" spills {spills}" if spills else ""))
    print(f"{bad} main loop(s) with R2UR, a wgmma wait 0 or a local-memory access")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
