# Session 20: suite figures of one graphgemm_bench result (geomeans cuBLASLt / ours, shapes below 0.95, the splitk
# automatic-vs-unsplit check):  python3 bench/results/h100/experiments_s20/suite_summary.py gemm_bf16.json
import json,math,sys
d=json.load(open(sys.argv[1]))
def g(xs): return math.exp(sum(math.log(x) for x in xs)/len(xs))
rows=d['rows']
S={'square':lambda r:r['suite']=='square','llm M<=256':lambda r:r['suite']=='llm' and r['M']<=256,'llm M>=1024':lambda r:r['suite']=='llm' and r['M']>=1024,'splitk':lambda r:r['suite']=='splitk'}
for s,f in S.items():
    rs=[r for r in rows if f(r)]
    print(f"{s:12s} cuBLASLt/ours {g([r['us']['cublaslt']/r['us']['sm90'] for r in rs]):.3f}  none {g([r['us']['cublaslt']/r['us']['sm90:none'] for r in rs]):.3f} n={len(rs)}")
for r in rows:
    if (r['suite']=='square' or (r['suite']=='llm' and r['M']>=1024)) and r['us']['cublaslt']/r['us']['sm90']<0.95: print('  below 0.95:', r['name'], r['M'], r['N'], r['K'], round(r['us']['cublaslt']/r['us']['sm90'],3))
    if r['suite']=='square' and r['M']==8192: print('  8192^3', round(r['us']['cublaslt']/r['us']['sm90'],3))
    if r['suite']=='splitk' and r['M']==128 and r['N']==128: print('  128x128x16384 ours',round(r['us']['sm90'],2),'lt',round(r['us']['cublaslt'],2),'sol',round(r['us']['sol'],2),'floor',round(r['floor_us'],2))
    if r['suite']=='splitk' and r['M']==128 and r['N']==1536: print('  128x1536x7168 ours',round(r['us']['sm90'],2),'none',round(r['us']['sm90:none'],2),'lt',round(r['us']['cublaslt'],2))
w=[r for r in rows if r['suite']=='llm' and r['M']<=256]
print('  llm M<=256 within 1.15x floor:', sum(1 for r in w if r['us']['sm90']/r['floor_us']<=1.15), 'of', len(w))
sk=[r for r in rows if r['suite']=='splitk']
print('  splitk auto slower than none by >2%:', [(r['M'],r['N'],r['K'],round(r['us']['sm90']/r['us']['sm90:none'],3)) for r in sk if r['us']['sm90']>1.02*r['us']['sm90:none']])
