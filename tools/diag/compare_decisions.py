#!/usr/bin/env python3
"""Diff the automatic choices (c0 lines) of two graphgemm_heuristic_decisions dumps.

    compare_decisions.py BEFORE AFTER [--verify]

Prints each shape whose kernel, mode, slices or cluster changed, with both predictions, and a
count. With --verify, prints instead one "MxNxK OLD NEW" line per change (kernel names without the
sm90_<in>_<out>_ prefix, ":mode:slices:cC" after them): the list a device script forces, old and
new in one binary (bench --backends sm90=sm90_bf16_bf16_OLD,sm90=sm90_bf16_bf16_NEW).
"""
import re
import sys


def parse(path):
    d = {}
    for line in open(path):
        if not line.startswith('c0 '):
            continue
        f = line.split()
        d[f[1]] = (f[2], f[3], int(f[5]), int(f[7]), float(f[9]))
    return d


def spec(c):
    return '%s:%s:%d:c%d' % (re.sub(r'^sm90_[a-z0-9]+_[a-z0-9]+_', '', c[0]), c[1], c[2], c[3])


def main():
    args = [a for a in sys.argv[1:] if not a.startswith('--')]
    if len(args) != 2:
        sys.exit(__doc__)
    a, b = parse(args[0]), parse(args[1])
    verify = '--verify' in sys.argv
    changed = 0
    for shape in a:
        if shape not in b or a[shape][:4] == b[shape][:4]:
            continue
        changed += 1
        if verify:
            print(shape, spec(a[shape]), spec(b[shape]))
        else:
            print('%-18s %-36s pred %7.2f  ->  %-36s pred %7.2f' % (shape, spec(a[shape]), a[shape][4], spec(b[shape]),
                                                                    b[shape][4]))
    if not verify:
        print('changed', changed, 'of', len(a))


if __name__ == '__main__':
    main()
