import json,sys
d=json.load(open(sys.argv[1]))
rows=d['rows']
ks=list(rows[0]['us'].keys())
print('name                 M floor', ' '.join(f"{k.replace('sm90=sm90_bf16_bf16_','').replace('_bk',''):>8s}"[-8:] for k in ks))
for r in rows:
    f=r['floor_us']
    best=min((r['us'][k] for k in ks if 'gemv' in k), default=0)
    print(f"{r['name']:18s} {r['M']:3d} {f:6.1f} "+' '.join(f"{r['us'][k]/f:8.3f}" for k in ks)+f"  best gemv {best/f:.3f} sm90 {r['us']['sm90']/f:.3f}")
