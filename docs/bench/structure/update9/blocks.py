# The per-block table of docs/bench/structure.md update 9, from the result files beside this script (all
# run in session 16 on one machine with one binary: the flat GP, the default before update 9 — no end-game
# for sets — and the set chart end-game, plus two variants on 0-29).
import os,sys
HERE=os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0,os.path.join(HERE,'..'))
from blocks_common import load, merge, print_blocks
def runs(method,*names): return lambda P: merge(*[load(os.path.join(HERE,n),method,P) for n in names])
methods=[('flat GP',runs('flat','flat09','fc_flat09','flat1029','flat3059')),
         ('before update 9 (`endgame_fraction` 0)',runs('set-auto','old09','old1029','old3059')),
         ('**set chart end-game (default)**',runs('set-auto','km_chart09','fc_chart09','km1029_chart','fc1029_chart','chart3059')),
         ('chart + `structure_averaging` acquisition',runs('set-auto','km_chart_sa09','km1029_chart_sa','fc_chart_sa09')),
         ('chart + `noise_cap` 0.01',runs('set-auto','chart_nc09'))]
print_blocks([(P,name,f(P)) for P in ['kmeans-seeds','facility','covering'] for name,f in methods])
