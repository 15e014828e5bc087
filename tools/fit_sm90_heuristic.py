import json, math, itertools
d=json.load(open('gemm_bf16.json'))
rows=d['rows']
cfg={'128x256x64_s4_c2x1':(128,256,2),'128x256x64_s4_c1x1':(128,256,1),'128x128x64_s6_c1x1':(128,128,1),'128x128x64_s6_c1x2':(128,128,2),'64x128x64_s8_c1x1':(64,128,1)}
names={c:'sm90=sm90_bf16_bf16_'+c for c in cfg}
def choose(r,eff,E):
    best=None
    for c,(bm,bn,cl) in cfg.items():
        ctas=(132//cl)*cl
        tiles=math.ceil(r['M']/bm)*math.ceil(r['N']/bn)
        waves=math.ceil(tiles/ctas)
        cost=waves*bm*bn*(r['K']/eff[c]+E)
        if best is None or cost<best[0]*(1-1e-9): best=(cost,c)
    return best[1]
def score(eff,E):
    s=0
    for r in rows:
        c=choose(r,eff,E)
        s+=math.log(r['us']['cublaslt']/r['us'][names[c]])
    return math.exp(s/len(rows))
oracle=math.exp(sum(math.log(max(r['us']['cublaslt']/r['us'][names[c]] for c in cfg)) for r in rows)/len(rows))
best=(0,None)
grid=[0.55,0.6,0.65,0.7,0.75,0.8,0.85,0.9,0.95]
for e3,e4,e5 in itertools.product([0.85,0.88,0.9,0.92,0.94,0.96,0.98],[0.8,0.85,0.9],[0.6,0.65,0.7,0.75,0.8]):
  for e2 in [0.97,0.99,1.0]:
    for E in [0,64,128,256,512,1024]:
        eff={'128x256x64_s4_c2x1':1.0,'128x256x64_s4_c1x1':e2,'128x128x64_s6_c1x1':e3,'128x128x64_s6_c1x2':e4,'64x128x64_s8_c1x1':e5}
        sc=score(eff,E)
        if sc>best[0]: best=(sc,(dict(eff),E))
print('oracle',oracle,'best',best)
