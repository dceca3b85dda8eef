# The per-block table of docs/bench/structure.md update 6, from the result files beside this script and update 5's.
import os,sys
HERE=os.path.dirname(os.path.abspath(__file__))
U5=os.path.join(HERE,'..','update5')
D=os.path.join(HERE,'..')
sys.path.insert(0,D)
from blocks_common import load, merge, print_blocks
def here(name): return os.path.join(HERE,name)
sets=['facility','covering','kmeans-seeds']
groups=['perm-offcentre','signflip-offcentre','control-hartmann6']
rows=[]
for p in sets:
    rows.append((p,'flat (session-13 default)',load(here('flat059'),'flat',p)))
    rows.append((p,'auto (update 5)',merge(load(os.path.join(U5,'auto3'),'set-auto',p),load(os.path.join(U5,'conf_fa'),'set-auto',p))))
    rows.append((p,'auto + element moves',merge(load(here('moves030'),'set-auto',p),load(here('moves3059'),'set-auto',p))))
for p in groups:
    rows.append((p,'flat (session-13 default)',load(here('flat059'),'flat',p)))
    rows.append((p,'auto (default)',merge(load(os.path.join(D,'select-lml'),'auto',p),load(os.path.join(D,'confirm2'),'default',p),
                                      load(os.path.join(D,'update4','confirm-20-29'),'default',p),load(os.path.join(U5,'conf_gdef'),'default',p))))
    rows.append((p,'auto + end-game 0.34',merge(load(here('geg2030'),'default',p),load(here('geg23059'),'default',p))))
print_blocks(rows)
