#!/usr/bin/env python3
"""Fluid model of update_he3_tma's blocks at 512^3 on one H200 (docs/performance.md, "psi a plane
ahead, one dispersion kernel"): 132 SMs x 4 block slots; blocks (32 x 8 columns, z chunks of 24
planes + 2 extra) dispatched in a given order; a block moves B bytes per plane (interior tiles
58.7 B/cell, tiles with CPML cells 79.8 B/cell: the Nsight DRAM figures of 2026-11-27) and
takes at least L us per plane (its latency floor); the DRAM bandwidth BW (bytes/us) is shared
max-min fairly among the running blocks. Calibrated by hand on the measured interior-only /
slab-only / mixed launch times (1.58 / 1.23 / 2.65 ms).

Usage: perf-model-sched.py [BW bytes/us] [L_interior us] [L_slab us] [B/cell interior] [B/cell slab] [order]
order 0: natural (x, y, chunk); 2: x, rows of a group of 8, chunk, group. Prints the modelled times in us.
A model, not a measurement: it knows nothing of L2, issue slots or the barrier.
"""
import sys
GX, GY, CH, NZ, PML = 16, 64, 24, 512, 16
chunks = (NZ + CH - 1) // CH
def tiles():
    out = []
    for bz in range(chunks):
        k0, k1 = bz * CH, min(NZ, bz * CH + CH)
        for by in range(GY):
            for bx in range(GX):
                i0, j0 = bx * 32, by * 8
                interior = max(i0 - 1, 0) >= PML and min(i0 + 31, 511) < 512 - PML and \
                    max(j0 - 1, 0) >= PML and min(j0 + 7, 511) < 512 - PML and k0 >= PML and k1 <= 512 - PML
                out.append((bx, by, bz, interior, k1 - k0 + 2))
    return out
T = tiles()
idx = {(t[0], t[1], t[2]): t for t in T}
def order(mode, G=8):
    if mode == 0: return T
    if mode == 2:
        res = []
        for g0 in range(0, GY, G):
            for bz in range(chunks):
                for by in range(g0, min(GY, g0 + G)):
                    for bx in range(GX): res.append(idx[(bx, by, bz)])
        return res
def sim(seq, Li, Ls, Bi, Bs, BW, slots=528, dt=0.05):
    seq = list(seq); nxt = 0; run = []  # [remaining planes, type]
    t = 0.0
    while nxt < len(seq) and len(run) < slots:
        run.append([seq[nxt][4], seq[nxt][3]]); nxt += 1
    while run:
        # max-min fair bandwidth: demands
        dem = [(Bi / Li if r[1] else Bs / Ls) for r in run]
        cap = BW; n = len(run); alloc = [0.0] * n
        order_ = sorted(range(n), key=lambda k: dem[k]); left = n
        for k in order_:
            share = cap / left
            a = min(dem[k], share); alloc[k] = a; cap -= a; left -= 1
        done = []
        for k, r in enumerate(run):
            r[0] -= alloc[k] * dt / (Bi if r[1] else Bs)
            if r[0] <= 0: done.append(k)
        for k in reversed(done):
            run.pop(k)
            if nxt < len(seq): run.append([seq[nxt][4], seq[nxt][3]]); nxt += 1
        t += dt
    return t
Bi, Bs = 256 * float(sys.argv[4] if len(sys.argv) > 4 else 58.7), 256 * float(sys.argv[5] if len(sys.argv) > 5 else 79.8)
ints = [t for t in T if t[3]]; slabs = [t for t in T if not t[3]]
print(len(ints), len(slabs))
BW = float(sys.argv[1]) if len(sys.argv) > 1 else 3.6e6   # bytes per us
Li = float(sys.argv[2]) if len(sys.argv) > 2 else 1.0
Ls = float(sys.argv[3]) if len(sys.argv) > 3 else 4.0
print("interior only %.0f us (1580)" % sim(ints, Li, Ls, Bi, Bs, BW))
print("slab only     %.0f us (1230)" % sim(slabs, Li, Ls, Bi, Bs, BW))
print("natural       %.0f us (2650)" % sim(order(0), Li, Ls, Bi, Bs, BW))
if len(sys.argv) > 6 and sys.argv[6] == "2":
    for G in (4, 8, 16):
        print("mode 2 G=%d    %.0f us" % (G, sim(order(2, G), Li, Ls, Bi, Bs, BW)))
