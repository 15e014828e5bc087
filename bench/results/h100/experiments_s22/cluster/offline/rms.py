import sys, collections, math
# RMS and mean of measured - estimate over slices == cluster cells (cooperative tiles), by tile
d=collections.defaultdict(list)
for l in open(sys.argv[1]):
    f=l.rstrip('\n').split('\t')
    kern=f[2].replace('sm90_bf16_bf16_',''); s=int(f[4]); c=int(f[5])
    if c<4 or kern.startswith(('16x','32x')) or s!=c: continue
    d[kern.split('_')[0]].append(float(f[6])-float(f[8]))
    d['all'].append(float(f[6])-float(f[8]))
print(' '.join('%s n%d mean %+.2f rms %.2f max|%.1f|'%(k,len(v),sum(v)/len(v),math.sqrt(sum(x*x for x in v)/len(v)),max(abs(x) for x in v)) for k,v in sorted(d.items())))
