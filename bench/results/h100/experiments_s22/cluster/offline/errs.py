import sys, collections
# cluster cells (slices == cluster, cooperative tiles), measured - estimate, by tile and k-blocks per slice
rows=collections.defaultdict(list)
for l in open(sys.argv[1]):
    f=l.rstrip('\n').split('\t')
    if len(f)<9: continue
    kern=f[2].replace('sm90_bf16_bf16_',''); s=int(f[4]); c=int(f[5])
    if c<=1 or kern.startswith(('16x','32x')) or s!=c: continue
    M,N,K=map(int,f[1].split('x'))
    rows[(kern.split('_')[0],s,K//64//s,f[1])].append(float(f[6])-float(f[8]))
for k in sorted(rows): print('%-10s s%-2d kb%-4d %-16s %s'%(k[0],k[1],k[2],k[3],' '.join('%+.2f'%x for x in rows[k])))
