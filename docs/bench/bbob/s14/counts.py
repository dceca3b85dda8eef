# usage: python3 counts.py RUNS_DIR METHOD... : per method and instance set (1-5, 6-10, 11-15) at d = 2, the functions whose
# 1e-2 target is reached on a majority of the instances, the ECDF of the 51 targets at t = 70, and how many functions
# have a lower / higher mean final f - fopt than the method "kbo" (the default).
import json,sys,os,math,statistics as st
R=sys.argv[1]; methods=sys.argv[2:]
sets=[(1,6),(6,11),(11,16)]
targets=[10**(2-0.2*k) for k in range(51)]  # 1e2..1e-8
def best(f,i,m):
    p=os.path.join(R,f'd2_f{f}_i{i}_{m}.json')
    if not os.path.exists(p): return None
    return min(json.load(open(p))['values'])
for m in methods:
    out=[]
    for a,b in sets:
        vals={f:[best(f,i,m) for i in range(a,b)] for f in range(1,25)}
        if any(v is None for l in vals.values() for v in l): out.append('  -  '); continue
        cnt=sum(1 for f in vals if sum(v<=1e-2 for v in vals[f])>=3)
        which=[f for f in vals if sum(v<=1e-2 for v in vals[f])>=3]
        ecdf=st.mean(sum(v<=t for t in targets)/len(targets) for f in vals for v in vals[f])
        base={f:[best(f,i,'kbo') for i in range(a,b)] for f in range(1,25)}
        bt=sum(st.mean(vals[f])<st.mean(base[f]) for f in vals); wo=sum(st.mean(vals[f])>st.mean(base[f]) for f in vals)
        out.append(f'{cnt:2d} ecdf {ecdf:.3f} {bt}/{wo} {which}')
    print(m); [print('   ',o) for o in out]
