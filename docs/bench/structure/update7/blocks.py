# The per-block table of docs/bench/structure.md update 7, from the result files beside this script,
# update 6's (the flat baseline and the end-game without the chart) and the earlier defaults'.
import os,sys
HERE=os.path.dirname(os.path.abspath(__file__))
D=os.path.join(HERE,'..')
U5=os.path.join(D,'update5'); U6=os.path.join(D,'update6')
sys.path.insert(0,D)
from blocks_common import load, merge, print_blocks
def here(name): return os.path.join(HERE,name)
rows=[]
for p in ['perm-offcentre','signflip-offcentre','control-hartmann6']:
    rows.append((p,'flat (session-13 default)',load(os.path.join(U6,'flat059'),'flat',p)))
    rows.append((p,'auto, no end-game (update 6 default)',merge(load(os.path.join(D,'select-lml'),'auto',p),load(os.path.join(D,'confirm2'),'default',p),
                                      load(os.path.join(D,'update4','confirm-20-29'),'default',p),load(os.path.join(U5,'conf_gdef'),'default',p))))
    rows.append((p,'auto + end-game 0.34 (update 6)',merge(load(os.path.join(U6,'geg2030'),'default',p),load(os.path.join(U6,'geg23059'),'default',p))))
    rows.append((p,'end-game + local_noise_cap 0.01 (no chart)',load(here('lnc030'),'default',p)))
    rows.append((p,'+ local_chart',merge(load(here('chart030'),'default',p),load(here('chart3059'),'default',p))))
    rows.append((p,'+ local_chart + local_noise_cap 0.01 (new default)',merge(load(here('chartlnc030'),'default',p),load(here('chartlnc3059'),'default',p))))
print_blocks(rows)
