# docs/bench/structure.md update 15, the experiment "the sliced kernel's step when every polished start was
# refused" (sliced_fallback_experiment.patch) against the default since update 15 on the selection seeds 0-29:
# mean best, the paired difference ± its standard error, and the 10-seed blocks won against the flat GP.
import math,os,statistics as st,sys
HERE=os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0,os.path.join(HERE,'..'))
from blocks_common import load, merge
R=lambda d: os.path.join(HERE,'raw',d)
flat_dirs=[os.path.join(HERE,'..','update13','raw','flat09'),os.path.join(HERE,'..','update14','raw','base1029')]
print('| problem | flat GP | default since update 15 | sliced step on refusal | difference (± s.e.) | blocks won against the flat GP |')
print('|---|---|---|---|---|---|')
for p in ['kmeans-seeds','facility','covering']:
    f=merge(*[load(d,'flat',p) for d in flat_dirs])
    c=merge(load(R('ac0014'),'set-auto',p),load(R('ac1529'),'set-auto',p))
    e=merge(load(R('sf0014'),'set-auto',p),load(R('sf1529'),'set-auto',p))
    S=range(30)
    diff=[e[s]-c[s] for s in S]
    won=sum(st.mean(e[s] for s in range(a,a+10))<=st.mean(f[s] for s in range(a,a+10)) for a in (0,10,20))
    print('| %s | %.4f | %.4f | %.4f | %+.4f ± %.4f | %d / 3 |'%(p,st.mean(f[s] for s in S),st.mean(c[s] for s in S),
          st.mean(e[s] for s in S),st.mean(diff),st.stdev(diff)/math.sqrt(30),won))
