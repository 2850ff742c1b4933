#!/usr/bin/env python3
"""Checks one kernel of a gfx950 assembly listing (gpu-module-to-binary
format=isa, unescaped) against the decode kernel's must-haves, and prints
its resources and per-tile instruction counts.

usage: isa_check.py LISTING --kernel NAME [--max-regs N] [--max-lds N]
                    [--require MNEMONIC ...] [--tile-loads [--head-dim D]]
Exit status 1 with one line per failed rule."""
import argparse
import re
import sys
from collections import Counter


def kernel_text(lines, name):
    start = next(i for i, l in enumerate(lines) if l.strip() == name + ":")
    end = next(i for i in range(start, len(lines)) if lines[i].startswith(".Lfunc_end"))
    return lines[start + 1:end]


def directive(text, key):
    m = re.search(r"^\s*" + re.escape(key) + r"[ ,]+(\d+)\s*$", text, re.M)
    return int(m.group(1)) if m else None


def mnemonic(line):
    s = line.strip()
    if not s or s.startswith((".", ";", "//")) or s.endswith(":"):
        return None
    return s.split()[0]


def klass(m):
    if m.startswith("v_mfma"):
        return "MFMA"
    if m.startswith("v_"):
        return "VALU"
    if m.startswith("ds_"):
        return "LDS"
    if m.startswith(("buffer_", "global_", "flat_", "scratch_")):
        return "VMEM"
    if m.startswith(("s_load", "s_buffer_load")):
        return "SMEM"
    if m.startswith(("s_waitcnt", "s_nop")):
        return "WAIT"
    return "SALU"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("listing")
    ap.add_argument("--kernel", required=True)
    ap.add_argument("--max-regs", type=int)
    ap.add_argument("--max-lds", type=int)
    ap.add_argument("--require", nargs="*", default=[])
    ap.add_argument("--tile-loads", action="store_true")
    ap.add_argument("--head-dim", type=int, default=256, choices=(64, 128, 256))
    ap.add_argument("--row-tiles", type=int, default=1,
                    help="16-row MFMA row tiles of the query block")
    a = ap.parse_args()
    text = open(a.listing).read()
    lines = text.splitlines()
    body = kernel_text(lines, a.kernel)
    fails = []
    vgpr = directive(text, ".set %s.num_vgpr" % a.kernel)
    agpr = directive(text, ".set %s.num_agpr" % a.kernel)
    sgpr = directive(text, ".set %s.numbered_sgpr" % a.kernel)
    kd = text[text.index(".amdhsa_kernel " + a.kernel):]
    lds = directive(kd, ".amdhsa_group_segment_fixed_size")
    priv = directive(kd, ".amdhsa_private_segment_fixed_size")
    accum = directive(kd, ".amdhsa_accum_offset")
    missing = [n for n, v in (("num_vgpr", vgpr), ("num_agpr", agpr), ("numbered_sgpr", sgpr),
                              ("group segment", lds), ("private segment", priv)) if v is None]
    if missing:
        print("FAIL: %s: the listing has no %s" % (a.kernel, ", ".join(missing)))
        return 1
    regs = vgpr if not agpr else accum + agpr
    print("%s: vgpr %d agpr %d (unified %d) sgpr %d lds %d scratch %d"
          % (a.kernel, vgpr, agpr, regs, sgpr, lds, priv))
    if priv != 0:
        fails.append("private segment %d, want 0" % priv)
    mn = [m for m in map(mnemonic, body) if m]
    if any(m.startswith("scratch_") for m in mn):
        fails.append("scratch instructions present")
    if a.max_regs is not None and regs > a.max_regs:
        fails.append("VGPR+AGPR %d > %d" % (regs, a.max_regs))
    if a.max_lds is not None and lds > a.max_lds:
        fails.append("LDS %d > %d" % (lds, a.max_lds))
    for r in a.require:
        if not any(m == r or m.startswith(r + "_e") for m in mn):
            fails.append("missing %s" % r)
    if a.tile_loads:
        # The tile loop: of the backward branches whose bodies hold the
        # scaled MFMAs, those holding the fewest (a branch back over the loop
        # and the tiles after it is block placement, not a loop), the
        # largest (the wave-uniform rescale branch included).
        labels = {l.strip()[:-1]: i for i, l in enumerate(body) if re.match(r"^\.LBB\w+:$", l.strip())}
        loop = None
        def scaled(seg):
            return sum(1 for x in seg if x.startswith("v_mfma_scale"))
        for i, l in enumerate(body):
            m = re.match(r"^\s*s_(?:c?branch\w*)\s+(\.LBB\w+)", l)
            if m and labels.get(m.group(1), i + 1) < i:
                seg = [x for x in map(mnemonic, body[labels[m.group(1)]:i + 1]) if x]
                if scaled(seg) and (loop is None or scaled(seg) < scaled(loop) or
                                    (scaled(seg) == scaled(loop) and len(seg) > len(loop))):
                    loop = seg
        c = Counter(loop or [])
        # per tile: max(1, D/128) K = 128 issues (D = 64 zero-pads one),
        # D/16 PV MFMAs and transposed reads, D/32 FP4 words = D/8 pair
        # conversions per lane
        d = a.head_dim
        issues = max(1, d // 128)
        rt = a.row_tiles
        tiles = c["v_mfma_scale_f32_16x16x128_f8f6f4"] // (issues * rt)
        if loop is None or tiles == 0:
            fails.append("no tile loop with %d scaled MFMAs per tile found" % issues)
        else:
            cls = Counter()
            for m, n in c.items():
                cls[klass(m)] += n
            loads = {m: n for m, n in c.items() if klass(m) == "VMEM" and "load" in m}
            print("tile loop: %d tiles per iteration; per tile: %s; VMEM loads %s"
                  % (tiles, ", ".join("%s %g" % (x, cls[x] / tiles) for x in sorted(cls)), loads))
            # V: D/8 bytes per lane (D = 64: one 8-byte load)
            want = {"buffer_load_dwordx4": 2 * issues * tiles, "buffer_load_dword": 2 * tiles}
            if d == 64:
                want = {"buffer_load_dwordx4": issues * tiles, "buffer_load_dwordx2": issues * tiles,
                        "buffer_load_dword": 2 * tiles}
            if loads != want:
                fails.append("tile loop loads %s, want %s (%d 16-byte K, %d bytes of V, "
                             "one 4-byte K-scale and one 4-byte V-scale per lane per tile)"
                             % (loads, want, issues, d // 8))
            # a block of several row tiles reads and converts V once for
            # all of them; each row tile has its own PV MFMAs, 16x16x16 for
            # one row tile, 32x32x16 for each pair of them
            pv = ({"v_mfma_f32_32x32x16_bf16": d // 32 * (rt // 2)} if rt >= 2
                  else {"v_mfma_f32_16x16x16_bf16": d // 16})
            per_tile = dict(pv, **{"ds_read_b64_tr_b16": d // 16,
                                   "v_cvt_scalef32_pk_bf16_fp4": d // 8})
            for m, n in per_tile.items():
                if c[m] != n * tiles:
                    fails.append("%s: %d per tile, want %d" % (m, c[m] / tiles, n))
    for f in fails:
        print("FAIL: %s: %s" % (a.kernel, f))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
