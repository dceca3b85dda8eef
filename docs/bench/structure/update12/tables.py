# docs/bench/structure.md update 12: the finals of the early-aligned experiment (raw/, run with
# early_aligned_experiment.patch applied) and of the option rows (no patch) beside this machine's default and
# flat GP, per block of seeds.
import os,statistics as st,sys
HERE=os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0,os.path.join(HERE,'..'))
from blocks_common import load, merge, curves
R=lambda d: os.path.join(HERE,'raw',d)
rows=[('flat GP','flat',['base09','base1029']),
      ('default (auto)','set-auto',['base09','base1029']),
      ('aligned added, forced while n < 10','set-auto',['ea10','ea10_1029']),
      ('aligned added, forced while n < 15','set-auto',['ea15']),
      ('aligned added, forced while n < 25','set-auto',['ea25']),
      ('aligned only while n < 15','set-auto',['eo15']),
      ('aligned only while n < 25','set-auto',['eo25']),
      ('default, endgame_fraction 0.2 (no patch)','set-auto',['eg0.2']),
      ('default, endgame_fraction 0.45 (no patch)','set-auto',['eg0.45']),
      ('default, β 1 (no patch)','set-auto',['beta1']),
      ('default, β 2 (no patch)','set-auto',['beta2']),
      ('default, lengthscale prior Gamma(6, 15) (no patch)','set-auto',['lp615','lp615_10-19','lp615_20-29']),
      ('default, lengthscale prior Gamma(3, 9) (no patch)','set-auto',['lp39'])]
P=['kmeans-seeds','facility','covering']
pooled=[r for r in rows if len(merge(*[load(R(x),r[1],P[0]) for x in r[2]]))==30]  # the rows run on seeds 0-29
def mean(d,a,b):
    v=[d[s] for s in range(a,b) if s in d]
    return '%.4f'%st.mean(v) if len(v)==b-a else '—'
print('| method | k-means 0–9 | stalls (> 0.05) | facility 0–9 | covering 0–9 |\n|---|---|---|---|---|')
for name,m,dirs in rows:
    d={p:merge(*[load(R(x),m,p) for x in dirs]) for p in P}
    print('| %s | %s | %d | %s | %s |'%(name,mean(d[P[0]],0,10),sum(d[P[0]][s]>0.05 for s in range(10)),
                                      mean(d[P[1]],0,10),mean(d[P[2]],0,10)))
print('\n| problem | method | 0–9 | 10–19 | 20–29 | 0–29 |\n|---|---|---|---|---|---|')
for p in P:
    for name,m,dirs in pooled:
        d=merge(*[load(R(x),m,p) for x in dirs])
        print('| %s | %s | %s |'%(p,name,' | '.join(mean(d,a,b) for a,b in [(0,10),(10,20),(20,30),(0,30)])))
print('\n| method | k-means stalls (> 0.05) 0–9 / 10–19 / 20–29 | mean incumbent after 10 / 20 evaluations, 0–29 |\n|---|---|---|')
for name,m,dirs in pooled:
    d=merge(*[load(R(x),m,P[0]) for x in dirs])
    c=merge(*[curves(R(x),m,P[0]) for x in dirs])
    print('| %s | %s | %.4f / %.4f |'%(name,' / '.join(str(sum(d[s]>0.05 for s in range(a,a+10))) for a in (0,10,20)),
                                     st.mean(c[s][9] for s in range(30)),st.mean(c[s][19] for s in range(30))))
