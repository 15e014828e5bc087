#!/usr/bin/env python3
"""Session 53: where stream-K's shared part goes, per CTA (sm90_trace with SM90_TRACE_CTAS=1 and
the stream-K events 13 / 14). Usage: tail.py old|new M N K FILE [UNSPLIT_FILE]. For the 128x256
tile in 2x1 clusters (workers = clusters = CTA / 2): each CTA's shared k-blocks under session 52's
partition (old) or this session's (new), the time from its first shared unit's start to its last
main loop, and that time per k-block against the whole waves' rate (from the unsplit trace: the
CTAs with one more tile end one tile later)."""
import re
import statistics as st
import sys

which, M, N, K, path = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
P = 66
T = -(-M // 256) * -(-N // 256)
kb = -(-K // 64)


def shared_kb(w):
    """(k-blocks of the shared part, segments, role) of worker w."""
    full = T // P
    tail = T - full * P
    if which == "old":
        dp = full * P if tail == 0 or tail * kb >= P else max(full - 1, 0) * P
        it = (T - dp) * kb
        q, r = divmod(it, P)
        b = w * q + min(w, r)
        e = b + q + (1 if w < r else 0)
        segs = len({i // kb for i in range(b, e)})
        return e - b, segs, "owner+" if segs > 1 or b % kb == 0 else "contrib"
    head = -(-tail * kb // P)
    span = kb - head
    if w < tail:
        return head, 1, "owner"
    h = w - tail
    j = tail * span
    q, r = divmod(j, P - tail)
    b = h * q + min(h, r)
    e = b + q + (1 if h < r else 0)
    return e - b, len({i // span for i in range(b, e)}) if span else 0, "helper"


def rows(p):
    out = {}
    for line in open(p):
        m = re.search(r"cta\s+(\d+) sm\s+\d+ first stage\s+([\d.]+) main loop done\s+([\d.]+) stored/handed off\s+([-\d.]+)"
                      r"(?: shared from\s+([\d.]+) first done\s+([-\d.]+))?", line)
        if m:
            out[int(m[1])] = [float(x) if x else None for x in m.groups()[1:]]
    return out


rate = None
if len(sys.argv) > 6:
    u = sorted(v[1] for v in rows(sys.argv[6]).values())
    lo = [x for x in u if x < (u[0] + u[-1]) / 2]
    hi = [x for x in u if x >= (u[0] + u[-1]) / 2]
    if lo and hi:
        rate = (st.median(hi) - st.median(lo)) / kb
        print(f"  unsplit: whole-wave rate {rate:.3f} us a k-block (CTAs with one more tile end "
              f"{st.median(hi) - st.median(lo):.1f} us later); last main loops {st.median(lo):.1f} / {st.median(hi):.1f}")
r = rows(path)
by_role = {}
for c, (first, done, hand, start, first_done) in r.items():
    if start is None:
        continue
    n, segs, role = shared_kb(c // 2)
    by_role.setdefault(role, []).append((start, done, n, segs, hand))
for role, v in sorted(by_role.items()):
    per = [(d - s) / n for s, d, n, _, _ in v if n]
    print(f"  {which} {role:8s} CTAs {len(v):3d}: shared part from {st.median(x[0] for x in v):8.1f} (min {min(x[0] for x in v):.1f}"
          f" max {max(x[0] for x in v):.1f}), k-blocks {min(x[2] for x in v)}-{max(x[2] for x in v)}, segments "
          f"{min(x[3] for x in v)}-{max(x[3] for x in v)}, last main loop {st.median(x[1] for x in v):8.1f} (max {max(x[1] for x in v):.1f}),"
          f" handed off max {max(x[4] for x in v):.1f}; us a k-block median {st.median(per):.3f}"
          + (f" = {st.median(per) / rate:.2f}x the whole waves'" if rate else ""))
