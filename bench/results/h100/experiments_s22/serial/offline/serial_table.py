# serial cells: measured vs estimate_us before (orig) / after (new), by tile and slices; one-wave cells (tiles x S <= 132) and the rest
import collections, statistics as st, math
o=[l.rstrip('\n').split('\t') for l in open('pred_orig.tsv')]
n=[l.rstrip('\n').split('\t') for l in open('pred_new.tsv')]
def ctas(shape,kern,S):
    m,nn,k=map(int,shape.split('x')); f=kern.replace('sm90_bf16_bf16_','').split('_'); bm,bn=map(int,f[0].split('x')[:2])
    cm=2 if 'c2x1' in kern else 1
    return -(-m//(bm*cm))*cm*-(-nn//bn)*S
g=collections.defaultdict(list); cells=[]
for a,b in zip(o,n):
    if a[3]!='serial': continue
    t=a[2].replace('sm90_bf16_bf16_','').split('x64_')[0]
    if t not in ('64x64','64x128','128x128'): continue
    S=int(a[4]); c=ctas(a[1],a[2],S); cls='half' if 2*c<=132 else ('wave' if c<=132 else 'multi')
    meas,po,pn=float(a[6]),float(a[8]),float(b[8])
    g[(t,cls)].append((meas,po,pn)); cells.append((a[0],a[1],t,S,cls,meas,po,pn))
print('| tile | grid | cells | median pred/meas before | after | RMS log error before | after |')
print('|---|---|---|---|---|---|---|')
for k in sorted(g):
    v=g[k]; r0=[p/m for m,p,_ in v]; r1=[q/m for m,_,q in v]
    e0=math.sqrt(sum(math.log(x)**2 for x in r0)/len(v)); e1=math.sqrt(sum(math.log(x)**2 for x in r1)/len(v))
    print('| %s | %s | %d | %.2f | %.2f | %.3f | %.3f |'%(k[0],k[1],len(v),st.median(r0),st.median(r1),e0,e1))
print()
print('| source | shape | tile | S | grid | measured us | before | after |')
print('|---|---|---|---|---|---|---|---|')
seen=set()
for c in sorted(cells,key=lambda c:(c[2],c[1],c[3],c[0])):
    if not (c[0] in ('sw','tab22') or c[0].startswith('st_')): continue
    key=(c[1],c[2],c[3],c[0][:5])
    if key in seen: continue
    seen.add(key)
    print('| %s | %s | %s | %d | %s | %.2f | %.2f | %.2f |'%c)
