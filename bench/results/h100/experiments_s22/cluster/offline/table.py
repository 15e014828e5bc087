# 128x128 (and 64x128 / 64x64 unchanged) cluster cells, slices == cluster = 8: measured vs estimate before / after
import collections
def load(fn):
    d=collections.OrderedDict()
    for l in open(fn):
        f=l.rstrip('\n').split('\t'); k=f[2].replace('sm90_bf16_bf16_','')
        if int(f[5])<=1 or k.startswith(('16x','32x')) or f[4]!=f[5]: continue
        d.setdefault((k.split('_')[0],f[1],f[4],f[5]),[]).append((float(f[6]),float(f[8])))
    return d
A=load('pred_orig.tsv');B=load('pred_new.tsv')
print('| tile | shape | S:cC | k-blocks/slice | measured (cells) | before | after | meas-before | meas-after |'); print('|---|---|---|---:|---|---:|---:|---:|---:|')
for key in sorted(A, key=lambda k:(k[0],int(k[1].split('x')[2])//int(k[2]),k[1])):
    if key[0]!='128x128x64' or key[2]!='8': continue
    ms=[m for m,_ in A[key]]; b=A[key][0][1]; a=B[key][0][1]; K=int(key[1].split('x')[2])
    print('| %s | %s | %s:c%s | %d | %s | %.2f | %.2f | %+.2f..%+.2f | %+.2f..%+.2f |'%(key[0][:7],key[1],key[2],key[3],K//64//8,' '.join('%.2f'%m for m in ms),b,a,min(ms)-b,max(ms)-b,min(ms)-a,max(ms)-a))
