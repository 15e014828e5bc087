# fit.py: RMS log error of estimate (t) and rank (t - 1.9 for a programmatic workspace split) against
# the measured cells (s21-era sources: tab21, split_tiles, call 9; median per cell), per cell group, for
# S22_E128 values run through the param build.
import subprocess, os, math, statistics, sys
cells = open('cells.tsv').read()
def run(env):
    e = dict(os.environ); e.update(env)
    out = subprocess.run(['./cells_param'], input=cells, capture_output=True, text=True, env=e).stdout
    g = {}
    for l in out.splitlines():
        tag, shape, kern, mode, s, c, meas, pr, t, pdlr, pdl, rank = l.split('\t')
        if tag == 'tab14': continue
        key = (shape, kern, mode, int(s), int(c))
        g.setdefault(key, [float(t), float(rank), []])[2].append(float(meas))
    return g
def group(key):
    shape, kern, mode, s, c = key
    if mode != 'parallel' or s == 1: return None
    tile = '64x128' if '_64x128x64_' in kern else '64x64' if '_64x64x64_' in kern else 'other'
    return (tile, 'ws' if c == 1 else 'cl')
for E in sys.argv[1:]:
    g = run(dict([E.split('=')]) if '=' in E else {'S22_E128': E})
    agg = {}
    for k, (t, r, ms) in g.items():
        gr = group(k)
        if not gr: continue
        m = statistics.median(ms)
        agg.setdefault(gr, []).append((math.log(t / m), math.log(r / m)))
    line = 'E128=%-5s' % E
    for gr in sorted(agg):
        v = agg[gr]
        rt = math.sqrt(sum(a * a for a, b in v) / len(v)); rr = math.sqrt(sum(b * b for a, b in v) / len(v))
        bt = sum(a for a, b in v) / len(v); br = sum(b for a, b in v) / len(v)
        line += ' | %s/%s n=%d est rms %.3f bias %+.3f, rank rms %.3f bias %+.3f' % (*gr, len(v), rt, bt, rr, br)
    print(line)
