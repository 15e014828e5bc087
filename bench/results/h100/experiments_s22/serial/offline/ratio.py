# serial-2 cells with 2 x CTAs <= 132 (and all one-wave) vs the unsplit automatic choice (sm90:none cell, or suite 'sm90' when unsplit) of the same source
import sys, collections
rows=[l.rstrip('\n').split('\t') for l in open(sys.argv[1])]
raw=[l.rstrip('\n').split('\t') for l in open('cells.tsv')]
base=collections.defaultdict(list)
for r,c in zip(rows,raw):
    src=r[0].split('_r')[0] if r[0].startswith('c9') else r[0]
    if c[4]=='sm90:none' or (c[4]=='sm90' and r[3]=='none'):
        base[(src,r[1])].append((float(r[6]),float(r[8]),r[2]))
def ctas(shape,kern,S):
    m,n,k=map(int,shape.split('x')); bm,bn=map(int,kern.replace('sm90_bf16_bf16_','').split('x')[:2])
    return -(-m//bm)*-(-n//bn)*S
out=set()
for r in rows:
    if r[3]!='serial' or r[4]!='2': continue
    src=r[0].split('_r')[0] if r[0].startswith('c9') else r[0]
    b=base.get((src,r[1])) or base.get(('suite',r[1]))
    if not b: continue
    bm=sum(x[0] for x in b)/len(b); bp=b[0][1]
    c=ctas(r[1],r[2],2)
    out.add((r[1],r[2].replace('sm90_bf16_bf16_','').split('_')[0],c,src,round(float(r[6]),2),round(float(r[8]),2),round(bm,2),round(bp,2),b[0][2].replace('sm90_bf16_bf16_','').split('_')[0]))
for o in sorted(out,key=lambda o:o[5]/o[7]):
    print('%-16s %-10s ctas %4d %-16s s2 meas %7.2f pred %7.2f | base %-9s meas %7.2f pred %7.2f | pred ratio %.3f meas ratio %.3f %s'%(o[0],o[1],o[2],o[3],o[4],o[5],o[8],o[6],o[7],o[5]/o[7],o[4]/o[6], 'HALF' if 2*o[2]<=132 else ('wave' if o[2]<=132 else '')))
