# docs/bench/structure.md update 15. Per `kbo show --json` file (one seed's study): BO suggestions whose closest pair of
# elements is within 0.02 (Euclidean, unit box), steps with refused polished starts (info.coincident_refused), and
# steps where all 9 polished starts (the default 8 Sobol starts and the incumbent) were refused, so that the best
# start as drawn took the step. usage: python3 near.py ELEMENT_DIM N_INIT FILE...
import json,math,sys
d=int(sys.argv[1]); n_init=int(sys.argv[2])
for f in sys.argv[3:]:
    j=json.load(open(f)); ts=j['trials']
    near=refused=fallback=0
    for t in ts:
        if t['id']<n_init: continue
        x=t['x']; e=[x[i:i+d] for i in range(0,len(x),d)]
        if min(math.dist(e[a],e[b]) for a in range(len(e)) for b in range(a+1,len(e)))<0.02: near+=1
        r=t.get('info',{}).get('coincident_refused',0)
        refused+=r>0; fallback+=r>=9
    print('%s: %d of %d BO suggestions with a pair within 0.02; %d steps refused starts, %d all of them'%(f,near,len(ts)-n_init,refused,fallback))
