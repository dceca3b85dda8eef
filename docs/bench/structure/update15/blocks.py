# docs/bench/structure.md update 15: the default since update 15 (sets with coincident elements refused,
# options.bo.avoid_coincident) against the default of update 14 and the flat GP on seeds 0-89 of this machine
# kind: mean best per 10-seed block, per 30 (0-29 selection; 30-59 and 60-89 fresh for this rule), pooled,
# the blocks each default wins against the flat GP, and the paired difference against update 14 per 30 seeds.
import math,os,statistics as st,sys
HERE=os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0,os.path.join(HERE,'..'))
from blocks_common import load, merge
R=lambda d: os.path.join(HERE,'raw',d)
U13=lambda d: os.path.join(HERE,'..','update13','raw',d)
U14=lambda d: os.path.join(HERE,'..','update14','raw',d)
runs={'flat':('flat',[U13('flat09'),U14('base1029'),U14('base3059'),U14('base6089')]),
      'u14':('set-auto',[U14('e16s10'),U14('e16s10_1029'),U14('e16s10_3059'),U14('e16s10_6089')]),
      'new':('set-auto',[R('ac0014'),R('ac1529'),R('ac3059'),R('ac6089')])}
names={'flat':'flat GP','u14':'default of update 14','new':'**default since update 15** (no coincident sets)'}
blocks=[(a,a+10) for a in range(0,90,10)]
thirds=[(0,30),(30,60),(60,90)]
print('| problem | method | '+' | '.join('%d–%d'%(a,b-1) for a,b in blocks)+' | 0–29 | 30–59 | 60–89 | 0–89 | blocks won |')
print('|---|---|'+'---|'*(len(blocks)+5))
data={}
for p in ['kmeans-seeds','facility','covering']:
    d={k:merge(*[load(r,m,p) for r in rs]) for k,(m,rs) in runs.items()}
    data[p]=d
    for k in ['flat','u14','new']:
        mean=lambda a,b: st.mean(d[k][s] for s in range(a,b))
        won='' if k=='flat' else '%d / 9'%sum(mean(a,b)<=st.mean(d['flat'][s] for s in range(a,b)) for a,b in blocks)
        cells=['%.4f'%mean(a,b) for a,b in blocks+thirds+[(0,90)]]
        print('| %s | %s | %s | %s |'%(p,names[k],' | '.join(cells),won))
print()
print('Paired difference, update 15 − update 14 (negative: the new default is better), ± standard error; seeds better / worse:')
print()
print('| problem | 0–29 | 30–59 | 60–89 | 0–89 |')
print('|---|---|---|---|---|')
for p,d in data.items():
    cells=[]
    for a,b in thirds+[(0,90)]:
        diff=[d['new'][s]-d['u14'][s] for s in range(a,b)]
        cells.append('%+.4f ± %.4f (%d / %d)'%(st.mean(diff),st.stdev(diff)/math.sqrt(len(diff)),sum(x<0 for x in diff),sum(x>0 for x in diff)))
    print('| %s | %s |'%(p,' | '.join(cells)))
