# lookup.py DEC_A DEC_B: compare the c0 (automatic) lines of two decision dumps and attach measured times
import sys, collections, re
meas = collections.defaultdict(list)
for l in open('cells.tsv'):  # the working directory's (run_all.sh cds into it)
    f = l.rstrip('\n').split('\t')
    meas[(f'{f[1]}x{f[2]}x{f[3]}', f[5], f[6], int(f[7]), int(f[8]))].append((f[0], float(f[9])))
def parse(fn):
    d = {}
    for l in open(fn):
        if not l.startswith('c0 '): continue
        f = l.split()
        d[f[1]] = (f[2], f[3], int(f[5]), int(f[7]), float(f[9]))
    return d
def spec(c):
    return '%s:%s:%d:c%d' % (c[0].replace('sm90_bf16_bf16_', ''), c[1], c[2], c[3])
def m(shape, c):
    v = meas.get((shape, c[0], c[1], c[2], c[3]))
    if not v: return '-'
    return ' '.join('%s=%.2f' % (t.replace('st_', ''), x) for t, x in v[:4])
A, B = parse(sys.argv[1]), parse(sys.argv[2])
n = 0
for s in A:
    a, b = A[s], B[s]
    if a[:4] != b[:4]:
        n += 1
        print('%-18s %-36s pred %7.2f [%s]  ->  %-36s pred %7.2f [%s]' % (s, spec(a), a[4], m(s, a), spec(b), b[4], m(s, b)))
print('changed', n, 'of', len(A))
