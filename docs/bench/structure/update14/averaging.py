# docs/bench/structure.md update 14: auto's candidates weighed by their evidence in the acquisition
# (`structure_averaging` acquisition, an option), with and without the plain kernel on the sorted vector,
# and with the aligned kernel instead of it or beside it (no_sorted_experiment.patch, update10's
# auto_aligned_experiment.patch), seeds 0-9, beside this machine's default and flat GP (update13/raw).
import os,statistics as st,sys
HERE=os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0,os.path.join(HERE,'..'))
from blocks_common import load
U13=lambda d: os.path.join(HERE,'..','update13','raw',d)
R=lambda d: os.path.join(HERE,'raw',d)
rows=[('flat GP','flat',U13('flat09')),('default (auto: average, sliced, sorted; the most probable models)','set-auto',U13('base09')),
      ('auto, weighed by evidence (`structure_averaging` acquisition)','set-auto',R('sa')),
      ('… without the sorted candidate (patch)','set-auto',R('ns_sa')),
      ('… the aligned kernel instead of the sorted one (patch)','set-auto',R('al_sa')),
      ('… the aligned kernel beside the sorted one (patch)','set-auto',R('aladd_sa'))]
print('| method | k-means (stalls) | facility | covering (seeds above 0.45) |')
print('|---|---|---|---|')
for name,m,run in rows:
    if not os.path.exists(os.path.join(run,'results.json')): continue
    k,f,c=(load(run,m,p) for p in ('kmeans-seeds','facility','covering'))
    print('| %s | %.5f (%d) | %.4f | %.4f (%d) |'%(name,st.mean(k.values()),sum(v>0.05 for v in k.values()),
          st.mean(f.values()),st.mean(c.values()),sum(v>0.45 for v in c.values())))
