# Collects every sm90 cell: tab22 (current split-K table, ebc4321), the s22fit cells (tab21 = bab2b86's
# table, tab14 = 328f8be's, st_* forced split tiles of session 21, c9_* call 9), sw_* (call 8 sweep), suite (main run).
import json, re, glob
out = []
def parse_cfg(cfg):
    m = re.search(r'sm90: (\S+), split-K (\S+) x(\d+)( summed in clusters of (\d+))?', cfg)
    if m: return m.group(1), m.group(2), int(m.group(3)), int(m.group(5) or 1)
    return None
def from_json(tag, f, only_auto=False):
    d = json.load(open(f))
    for r in d['rows']:
        for key, us in r['us'].items():
            if not key.startswith('sm90') or us is None: continue
            if only_auto and key != 'sm90': continue
            p = parse_cfg(r['config'].get(key, ''))
            if not p: continue
            pm = re.findall(r'predicted ([\d.]+) us', r['config'][key])
            out.append((tag, r['M'], r['N'], r['K'], key, *p, us, pm[0] if pm else '-', int('programmatic launch' in r['config'][key])))
from_json('tab22', '/work/main/bench/results/h100/splitk/gemm_bf16.json')
for f in sorted(glob.glob('sweep_*/gemm_bf16.json')): from_json('sw', f)
from_json('suite', '/work/main/bench/results/h100/gemm_bf16.json', only_auto=True)
with open('cells.tsv', 'w') as fo:
    for c in out: fo.write('\t'.join(map(str, c)) + '\n')
    for l in open('/tmp/s22fit/cells.tsv'): fo.write(l)
print(len(out))
