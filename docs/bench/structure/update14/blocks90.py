# docs/bench/structure.md update 14: the new default (10 exploration-first BO steps at β 16; before it was
# the experiment `β 16 for the first 10 BO steps`) against the flat GP and the default before update 14, on
# seeds 0-89 of this machine: mean best per 10-seed block, per 30 (0-29 selection; 30-59 and 60-89 fresh),
# pooled, and the blocks each structured default wins against the flat GP.
import os,statistics as st,sys
HERE=os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0,os.path.join(HERE,'..'))
from blocks_common import load, merge
R=lambda d: os.path.join(HERE,'raw',d)
U13=lambda d: os.path.join(HERE,'..','update13','raw',d)
runs={'flat':('flat',[U13('flat09'),R('base1029'),R('base3059'),R('base6089')]),
      'old':('set-auto',[U13('base09'),R('base1029'),R('base3059'),R('base6089')]),
      'new':('set-auto',[R('e16s10'),R('e16s10_1029'),R('e16s10_3059'),R('e16s10_6089')])}
names={'flat':'flat GP','old':'default before update 14','new':'**default since update 14** (exploration first)'}
blocks=[(a,a+10) for a in range(0,90,10)]
print('| problem | method | '+' | '.join('%d–%d'%(a,b-1) for a,b in blocks)+' | 0–29 | 30–59 | 60–89 | 0–89 | blocks won |')
print('|---|---|'+'---|'*(len(blocks)+5))
for p in ['kmeans-seeds','facility','covering']:
    d={k:merge(*[load(r,m,p) for r in rs]) for k,(m,rs) in runs.items()}
    for k in ['flat','old','new']:
        mean=lambda a,b: st.mean(d[k][s] for s in range(a,b))
        won='' if k=='flat' else '%d / 9'%sum(mean(a,b)<=st.mean(d['flat'][s] for s in range(a,b)) for a,b in blocks)
        cells=['%.4f'%mean(a,b) for a,b in blocks+[(0,30),(30,60),(60,90),(0,90)]]
        print('| %s | %s | %s | %s |'%(p,names[k],' | '.join(cells),won))
