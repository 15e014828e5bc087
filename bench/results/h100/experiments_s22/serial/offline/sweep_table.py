import sys, collections
f = sys.argv[1]
rows = [l.rstrip('\n').split('\t') for l in open(f)]
by = collections.defaultdict(dict)
auto = {}
for r in rows:
    if r[0] != 'sw': continue
    kern = r[2].replace('sm90_bf16_bf16_', '')
    key = (kern, r[3], int(r[4]), int(r[5]))
    by[r[1]][key] = (float(r[6]), float(r[8]), float(r[11]))
for r in rows:
    if r[0] == 'sw' and r[7] != '-' and False: pass
import json, glob
for f2 in glob.glob('sweep_*/gemm_bf16.json'):
    d = json.load(open(f2))['rows'][0]
    auto['%dx%dx%d' % (d['M'], d['N'], d['K'])] = (d['us']['sm90'], d['config']['sm90'], d['us']['cublaslt'])
for shape in sorted(by, key=lambda s: [int(x) for x in s.split('x')]):
    a = auto[shape]
    print('== %s auto %.2f cublaslt %.2f [%s]' % (shape, a[0], a[2], a[1][a[1].find('sm90_bf16_bf16_')+15:a[1].find(',', a[1].find('split-K')+12)]))
    for t in ['64x64x64_s13_c1x1_bk', '64x128x64_s8_c1x1_bk', '128x128x64_s6_c1x1_bk']:
        cells = by[shape]
        par = [(v[0], k[2], k[3], v[1], v[2]) for k, v in cells.items() if k[0] == t and k[1] == 'parallel']
        bp = min(par) if par else None
        bpp = min(par, key=lambda x: x[4]) if par else None
        def g(mode, s):
            v = cells.get((t, mode, s, 1))
            return '%6.2f/%6.2f' % (v[0], v[1]) if v else '      -      '
        print('  %-8s none %s | s2 %s s4 %s | p2 %s | best-meas p%d c%d %.2f (pred %.2f) | best-rank p%d c%d meas %.2f pred %.2f rank %.2f' % (
            t.split('x64_')[0], g('none', 1), g('serial', 2), g('serial', 4), g('parallel', 2),
            bp[1], bp[2], bp[0], bp[3], bpp[1], bpp[2], bpp[0], bpp[3], bpp[4]))
