import random, collections, sys
def coords(t, tiles_m, tiles_n, group=8):
    major, minor = tiles_m, tiles_n
    per_group = group*minor; gid = t//per_group; first = gid*group
    gs = min(major-first, group); r = t-gid*per_group
    return first + r%gs, r//gs
def current(T, kb, P, base):
    I=T*kb; q,r=divmod(I,P)
    segs=[]
    for c in range(P):
        b=c*q+min(c,r); e=b+q+(1 if c<r else 0)
        s=[]; it=b
        while it<e:
            t=it//kb; lo=it-t*kb; hi=min(kb,e-t*kb); s.append((base+t,lo,hi)); it=t*kb+hi
        segs.append(s)
    return segs
def owner_head(T, kb, P, base):
    I=T*kb; s=-(-I//P); segs=[[(base+t,0,s)] for t in range(T)]
    H=P-T; span=kb-s; J=T*span
    if H<=0 or J==0: return segs
    q,r=divmod(J,H)
    for h in range(H):
        b=h*q+min(h,r); e=b+q+(1 if h<r else 0); sg=[]; j=b
        while j<e:
            t=j//span; lo=j-t*span; hi=min(span,e-t*span); sg.append((base+t,s+lo,s+hi)); j=t*span+hi
        segs.append(sg)
    return segs
def dp(T,kb,P,base):
    return [[(base+c,0,kb)] for c in range(min(T,P))]
def sim(segs, tiles_m, tiles_n, cap_blocks, seed=0):
    # each worker: sequence of (tile,k) accesses
    rnd=random.Random(seed)
    seqs=[]
    for s in segs:
        seq=[]
        for (t,lo,hi) in s:
            m,n=coords(t,tiles_m,tiles_n)
            for k in range(lo,hi): seq.append((m,n,k))
        seqs.append(seq)
    cache=collections.OrderedDict(); miss=0; acc=0
    steps=max(len(x) for x in seqs)
    for st in range(steps):
        order=list(range(len(seqs))); rnd.shuffle(order)
        for w in order:
            if st<len(seqs[w]):
                m,n,k=seqs[w][st]
                for key in (('A',m,k),('B',n,k)):
                    acc+=1
                    if key in cache: cache.move_to_end(key)
                    else:
                        miss+=1; cache[key]=1
                        if len(cache)>cap_blocks: cache.popitem(last=False)
    return miss/acc, steps
for (name,M,N,K,P) in [("8192^3",8192,8192,8192,66),("6144^3",6144,6144,6144,66),("4096^3",4096,4096,4096,66),("70b.qkv M8192",8192,10240,8192,66),("70b.down M8192",8192,8192,28672,66), ("8b.gate_up M4096",4096,28672,4096,66)]:
    tm,tn=M//256,N//256; T=tm*tn; kb=K//64; full=T//P; tail=T-full*P; base=full*P
    for capMB in (30,50):
        cap=capMB*1024//32
        r=[]
        for f in (dp,current,owner_head):
            if f is dp: segs=dp(P,kb,P,(full-1)*P)
            else: segs=f(tail,kb,P,base)
            mr,steps=sim(segs,tm,tn,cap)
            r.append(f"{f.__name__}: miss {mr:.3f} steps {steps}")
        print(name, f"tail {tail}/{P} kb {kb} L2 {capMB}MB |", " | ".join(r))
