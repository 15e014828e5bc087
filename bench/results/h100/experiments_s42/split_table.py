#!/usr/bin/env python3
"""Session 42: per shape of a bench JSON, every backend's time / cuBLASLt's and / the floor, fastest
first (the forced split-K sweep at M = 128 / 256).
  split_table.py gemm_bf16.json"""
import json
import sys

d = json.load(open(sys.argv[1]))
rows = d['rows'] if isinstance(d, dict) else d
for r in rows:
    us = {k: v for k, v in r['us'].items() if v}
    lt = us.get('cublaslt')
    print('%s M=%d N=%d K=%d floor %.2f cuBLASLt %.2f  auto: %s' % (r['name'], r['M'], r['N'], r['K'], r['floor_us'], lt or 0,
                                                          r.get('config', {}).get('sm90', '')[:70]))
    for k, v in sorted(us.items(), key=lambda kv: kv[1]):
        print('    %-48s %7.2f  /lt %.3f  /floor %.3f' % (k.replace('sm90_bf16_bf16_', ''), v, v / lt if lt else 0, v / r['floor_us']))
