# docs/bench/structure.md update 14: more exploration in the first BO steps (early_beta_experiment.patch),
# beside this machine's default and flat GP on the selection seeds 0-29 (0-9 from update13/raw, 10-29 from
# raw/base1029), per 10-seed block and pooled, with the mean paired difference to the flat GP ± its standard
# error over 0-29 and (k-means) the stalls, final best > 0.05.
import os,statistics as st,sys
HERE=os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0,os.path.join(HERE,'..'))
from blocks_common import load, merge
R=lambda d: os.path.join(HERE,'raw',d) if not d.startswith('u13:') else os.path.join(HERE,'..','update13','raw',d[4:])
rows=[('flat GP','flat',['u13:flat09','base1029']),
      ('default (auto, β 4)','set-auto',['u13:base09','base1029']),
      ('β 16 for the first 10 BO steps','set-auto',['e16s10','e16s10_1029']),
      ('β 9 for the first 10 BO steps','set-auto',['e9s10']),
      ('β from 16 down to 4 over the 26 global steps','set-auto',['lin16','lin16_1029']),
      ('β 16 throughout','set-auto',['b16']),
      ('β 36 throughout','set-auto',['b36'])]
P=['kmeans-seeds','facility','covering']
get=lambda m,runs,p: merge(*[load(R(r),m,p) for r in runs])
flat={p:get('flat',rows[0][2],p) for p in P}
print('| problem | method | 0–9 | 10–19 | 20–29 | 0–29 | 0–29: method − flat GP (± se) | bad seeds of 0–29 |')
print('|---|---|---|---|---|---|---|---|')
bad={'kmeans-seeds':0.05,'facility':0.135,'covering':0.45}
for p in P:
    for name,m,runs in rows:
        d=get(m,runs,p)
        cells=[]
        for a,b in [(0,10),(10,20),(20,30),(0,30)]:
            v=[d[s] for s in range(a,b) if s in d]
            cells.append('%.4f'%st.mean(v) if len(v)==b-a else '—')
        full=all(s in d for s in range(30))
        diff=[d[s]-flat[p][s] for s in range(30)] if full else []
        pd='%+.4f ± %.4f'%(st.mean(diff),st.stdev(diff)/30**.5) if full and m!='flat' else ''
        nb='%d'%sum(d[s]>bad[p] for s in range(30)) if full else ''
        print('| %s | %s | %s | %s | %s |'%(p,name,' | '.join(cells),pd,nb))
