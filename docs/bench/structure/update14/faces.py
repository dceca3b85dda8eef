# docs/bench/structure.md update 14: the acquisition kept off the box's faces (inner_box_experiment.patch,
# KBO_EXP_INNER=0.03) against this machine's default and flat GP (update13/raw), seeds 0-9: mean best and the
# mean incumbent after 10, 20 and 30 evaluations.
import os,statistics as st,sys
HERE=os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0,os.path.join(HERE,'..'))
from blocks_common import load, curves
U13=lambda d: os.path.join(HERE,'..','update13','raw',d)
rows=[('flat GP','flat',U13('flat09')),('default','set-auto',U13('base09')),
      ('acquisition on [0.03, 0.97]^D (patch)','set-auto',os.path.join(HERE,'raw','in03'))]
P=['kmeans-seeds','facility','covering']
print('| method | '+' | '.join('%s: best (after 10 / 20 / 30)'%p for p in P)+' |')
print('|---|---|---|---|')
for name,m,run in rows:
    cells=[]
    for p in P:
        d=load(run,m,p); c=curves(run,m,p)
        cells.append('%.4f (%s)'%(st.mean(d.values()),' / '.join('%.4f'%st.mean(c[s][t-1] for s in range(10)) for t in (10,20,30))))
    print('| %s | %s |'%(name,' | '.join(cells)))
