#!/usr/bin/env python3
"""Session 42: chain_trace medians (GPU us per chain of 4 in a graph of 20) of two builds, per case
and round (the mean where a case ran more than once in a round), and their ratio; then per build and case (round 1) the median main loop of layers 1-3
and the hand-over (last tile of the layer before handed over -> the median wait over).
  trace_table.py trace_old.txt trace_new.txt"""
import re
import sys


def parse(path):
    res, case = {}, None
    for line in open(path):
        m = re.match(r'== \w+ round (\d): (.*)', line)
        if m:
            case = (m.group(2).strip(), int(m.group(1)))
            fresh = case not in res
            if fresh:
                res[case] = {'loops': [], 'hand': [], 'runs': []}
            continue
        if case is None:
            continue
        m = re.search(r'median ([\d.]+) us', line)
        if m:
            res[case]['runs'].append(float(m.group(1)))
            res[case]['us'] = sum(res[case]['runs']) / len(res[case]['runs'])
        if not fresh:
            continue
        m = re.match(r'\s+(\d)\s+([\d.]+) /\s+([\d.]+)\s+([\d.]+) /\s+([\d.]+)\s+[\d.]+ TB/s (.*)', line)
        if m and int(m.group(1)) > 0:
            res[case]['loops'].append(float(m.group(2)))
            h = re.match(r'([\d.]+) -> ([\d.]+) / ([\d.]+) / ([\d.]+)', m.group(6).strip())
            if h:
                res[case]['hand'].append(float(h.group(3)) - float(h.group(1)))
    return res


o, n = parse(sys.argv[1]), parse(sys.argv[2])
print('case            old r1  new r1  old r2  new r2  new/old | loop l1-3 old new | hand-over old new')
for c in dict.fromkeys(k[0] for k in o):
    a = [d.get((c, r), {}).get('us') for r in (1, 2) for d in (o, n)]
    if None in a:
        print(c, a)
        continue
    lo, ln = o[(c, 1)]['loops'], n[(c, 1)]['loops']
    ho, hn = o[(c, 1)]['hand'], n[(c, 1)]['hand']
    f = lambda v: ' '.join('%5.2f' % x for x in v)
    print('%-14s %7.2f %7.2f %7.2f %7.2f  %.3f | %s | %s || %s | %s' % (c, *a, (a[1] + a[3]) / (a[0] + a[2]), f(lo), f(ln), f(ho), f(hn)))
