# docs/bench/structure.md update 13: periodic local and exploitation steps (options that exist) and a spread
# initial design (run with spread_design_experiment.patch applied), beside this machine's default and flat
# GP, seeds 0-9. Mean best, k-means stalls (final > 0.05) and the mean incumbent after 10 evaluations.
import os,statistics as st,sys
HERE=os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0,os.path.join(HERE,'..'))
from blocks_common import load, curves
R=lambda d: os.path.join(HERE,'raw',d)
rows=[('flat GP','flat','flat09'),
      ('default (auto)','set-auto','base09'),
      ('local_every 2','set-auto','le2'),
      ('local_every 3','set-auto','le3'),
      ('local_every 4','set-auto','le4'),
      ('exploit_every 3','set-auto','ex3'),
      ('spread design, best of 4 (patch)','set-auto','sp4'),
      ('spread design, best of 16 (patch)','set-auto','sp16')]
P=['kmeans-seeds','facility','covering']
print('| method | k-means | stalls (> 0.05) | facility | covering | after 10 evaluations: k-means / facility / covering |')
print('|---|---|---|---|---|---|')
for name,m,run in rows:
    d={p:load(R(run),m,p) for p in P}
    c={p:curves(R(run),m,p) for p in P}
    at10=' / '.join('%.4f'%st.mean(c[p][s][9] for s in range(10)) for p in P)
    print('| %s | %.4f | %d | %.4f | %.4f | %s |'%(name,st.mean(d[P[0]][s] for s in range(10)),
          sum(d[P[0]][s]>0.05 for s in range(10)),st.mean(d[P[1]][s] for s in range(10)),
          st.mean(d[P[2]][s] for s in range(10)),at10))
