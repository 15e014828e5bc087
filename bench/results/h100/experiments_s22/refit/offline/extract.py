# Collects every sm90 cell (shape, kernel, mode, slices, cluster, measured us) from the split-K
# tables (sessions 21 and 14), the forced split-tile runs (experiments_s21/split_tiles) and call 9's logs.
import json, re, glob
out = []
def parse_cfg(cfg):
    m = re.search(r'sm90: (\S+), split-K (\S+) x(\d+)( summed in clusters of (\d+))?', cfg)
    if m: return m.group(1), m.group(2), int(m.group(3)), int(m.group(5) or 1)
    m = re.search(r'sm90: (\S+), split-K none', cfg)
    if m: return m.group(1), 'none', 1, 1
    return None
def from_json(tag, f):
    d = json.load(open(f))
    for r in d['rows']:
        for key, us in r['us'].items():
            if not key.startswith('sm90') or us is None: continue
            p = parse_cfg(r['config'].get(key, ''))
            if not p: continue
            pm = re.findall(r'predicted ([\d.]+) us', r['config'][key])
            out.append((tag, r['M'], r['N'], r['K'], key, *p, us, pm[0] if pm else '-', int('programmatic launch' in r['config'][key])))
from_json('tab21', 'splitk_s21.json')
from_json('tab14', 'splitk_s14.json')
for f in sorted(glob.glob('st/*/gemm_bf16.json')):
    from_json('st_' + f.split('/')[1], f)
# call 9 logs: forced kernels named in the backend; automatic = 64x128 p8 c8 (256x256x16384),
# 64x128 p16 c1 (128x256x32768) per docs/sm90_notes.md
auto9 = {'256x256x16384': ('sm90_bf16_bf16_64x128x64_s8_c1x1_bk', 'parallel', 8, 8),
         '128x256x32768': ('sm90_bf16_bf16_64x128x64_s8_c1x1_bk', 'parallel', 16, 1)}
for f in sorted(glob.glob('c9/*.log')):
    txt = open(f).read()
    shape = re.search(r'shape (\d+x\d+x\d+)', txt).group(1)
    M, N, K = map(int, shape.split('x'))
    rnd = re.search(r'_(r\d)\.log', f).group(1)
    m = re.search(r' sm90 ([\d.]+) us', txt)
    out.append(('c9_' + rnd, M, N, K, 'sm90', *auto9[shape], float(m.group(1)), '-', -1))
    for km in re.finditer(r'sm90=(\S+):(parallel|serial):(\d+):c(\d+) ([\d.]+) us', txt):
        out.append(('c9_' + rnd, M, N, K, 'forced', km.group(1), km.group(2), int(km.group(3)), int(km.group(4)), float(km.group(5)), '-', -1))
with open('cells.tsv', 'w') as fo:
    for c in out: fo.write('\t'.join(map(str, c)) + '\n')
print(len(out))
