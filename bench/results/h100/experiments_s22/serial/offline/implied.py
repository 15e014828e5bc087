# implied serial overhead per cell: (a) meas_s - U_model (+1.9 if PDL), (b) via the same-tile parallel cell of the same slices in the same source
import collections
rows = [l.rstrip('\n').split('\t') for l in open('pred_u.tsv')]
cells = collections.defaultdict(list)
for r in rows: cells[(r[0].split('_r')[0] if r[0].startswith('c9') else r[0], r[1], r[2], r[3], int(r[4]), int(r[5]))].append(r)
def tiles(shape, kern):
    m, n, k = map(int, shape.split('x')); bm, bn = map(int, kern.replace('sm90_bf16_bf16_', '').split('x')[:2])
    cm = 2 if '_c2x1' in kern else 1
    return -(-m // (bm*cm)) * cm * -(-n // bn)
out = []
for key, rs in cells.items():
    tag, shape, kern, mode, S, c = key
    if mode != 'serial' or S < 2: continue
    r = rs[0]
    meas = sum(float(x[6]) for x in rs) / len(rs)
    U = float(r[8]); pdl = int(r[9])
    a = meas - U + 1.9 * (pdl == 1)
    p = cells.get((tag, shape, kern, 'parallel', S, 1))
    b = None
    if p:
        mp = sum(float(x[6]) for x in p) / len(p)
        b = meas - mp + float(p[0][11]) - U + 1.9 * (pdl == 1)   # p rank: pred - 1.9*pdl(model)
    T = tiles(shape, kern)
    out.append((kern.replace('sm90_bf16_bf16_', '').split('_s')[0], S, T * S <= 132, tag, shape, T, meas, U, pdl, a, b))
out.sort()
for o in out:
    print('%-10s S=%-2d onewave=%d %-14s %-16s tiles %4d meas %7.2f U %7.2f pdl %2d  implied_ov(U) %6.2f  implied_ov(vs p) %s' % (*o[:10], '%6.2f' % o[10] if o[10] is not None else '-'))
