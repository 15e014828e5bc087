# compare.py before.tsv after.tsv: per cell, measured (session-21-era sources: min-max, n; session-14 table),
# estimate and rank before / after. Prints cells whose estimate changed, plus all cluster-sum cells of 64x128/64x64.
import sys, collections
def load(f):
    g = collections.OrderedDict()
    for l in open(f):
        tag, shape, kern, mode, s, c, meas, pr, t, pdlr, pdl, rank = l.rstrip('\n').split('\t')
        key = (shape, kern.replace('sm90_bf16_bf16_', '').replace('_bk', ''), mode, int(s), int(c))
        d = g.setdefault(key, {'new': [], 'old': [], 't': float(t), 'r': float(rank), 'pdl': int(pdl)})
        (d['old'] if tag == 'tab14' else d['new']).append(float(meas))
    return g
a, b = load(sys.argv[1]), load(sys.argv[2])
mode = sys.argv[3] if len(sys.argv) > 3 else 'changed'
print('| shape | tile | mode | S | c | measured (s21-era, min-max, n) | s14 table | est before | est after | rank before | rank after | after/measured (est, rank) |')
print('|---|---|---|---|---|---|---|---|---|---|---|---|')
n = 0
for k in sorted(a, key=lambda k: (k[0], k[1], k[4] > 1, k[3])):
    x, y = a[k], b[k]
    changed = abs(x['t'] - y['t']) > 1e-6
    if mode == 'changed' and not changed: continue
    if mode == 'cluster' and not (k[2] == 'parallel' and k[4] > 1 and ('64x128x64' in k[1] or '64x64x64' in k[1])): continue
    ms = '%.2f-%.2f, %d' % (min(x['new']), max(x['new']), len(x['new'])) if x['new'] else '-'
    ref = min(x['new']) if x['new'] else min(x['old'])
    print('| %s | %s | %s | %d | %d | %s | %s | %.2f | %.2f | %.2f | %.2f | %.2f, %.2f |' % (*k, ms, '%.2f' % min(x['old']) if x['old'] else '-', x['t'], y['t'], x['r'], y['r'], y['t'] / ref, y['r'] / ref))
    n += 1
print('(%d cells)' % n)
