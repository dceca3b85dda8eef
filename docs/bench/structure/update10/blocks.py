# The per-block table of docs/bench/structure.md update 10, from the result directories in raw/ (all run in
# session 17 on one machine with one binary: the flat GP, the default (set chart end-game, update 9), the
# aligned set kernel alone, and auto with the aligned kernel in place of the sorted one — the last with
# auto_aligned_experiment.patch applied and KBO_EXP_ALIGNED=1 KBO_EXP_NOSORTED=1, not kept).
# Also the stall counts (final best above 0.05) on k-means over seeds 0-59, with update 9's 30-59.
import os,sys
HERE=os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0,os.path.join(HERE,'..'))
from blocks_common import load, merge, print_blocks
def runs(method,*names): return lambda P: merge(*[load(os.path.join(HERE,'raw',n),method,P) for n in names])
methods=[('flat GP',runs('flat','flat029')),
         ('**default** (set chart end-game)',runs('set-auto','base09','base_fc09','chart1029')),
         ('`--set-kernel aligned`',runs('set-aligned','al09','al_km1029','al_fc')),
         ('auto with aligned instead of sorted (patch)',runs('set-auto','autoalns09','ans_km1029','ans_fac','ans_cov')),
         ('auto with aligned added (patch)',runs('set-auto','autoal09')),
         ('default + `hmc_max_n` 20',runs('set-auto','hmc20_09')),
         ('default + `endgame_fraction` 0.6',runs('set-auto','eg60_09'))]
print_blocks([(P,name,f(P)) for P in ['kmeans-seeds','facility','covering'] for name,f in methods])

U9=os.path.join(HERE,'..','update9')
for name,here,fresh in [('flat GP',runs('flat','flat029'),lambda P: load(os.path.join(U9,'flat3059'),'flat',P)),
                        ('default',runs('set-auto','base09','chart1029'),lambda P: load(os.path.join(U9,'chart3059'),'set-auto',P))]:
    d=merge(here('kmeans-seeds'),fresh('kmeans-seeds'))
    stalls=lambda a,b: sum(1 for s in range(a,b) if d[s]>0.05)
    print('%s: k-means stalls (final > 0.05) on seeds 0-9: %d, 10-29: %d, 30-59 (update 9): %d, all 60: %d'
          %(name,stalls(0,10),stalls(10,30),stalls(30,60),stalls(0,60)))
