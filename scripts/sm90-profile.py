#!/usr/bin/env python3
"""Where one sm_90a decode launch spends its warps' time, per instruction.

Runs Nsight Compute's per-instruction stall sampling (SourceCounters,
WarpStateStats) on one `uq-bench-cuda --shape=B,N,HK,QG` decode, exports the
SASS source page and prints:
  - the launch's split into prologue, tile loop and epilogue (the loop: the
    instructions executed at least half as often as the hottest one), each
    with its share of the stall samples, its instructions per warp and its
    top stall reasons;
  - the loop's instruction mix per 16-token tile per warp (opcode counts).
Needs an H100/H200 with ncu on PATH and libuqrt on LD_LIBRARY_PATH.

usage: scripts/sm90-profile.py B,N,HK,QG [BUILD_DIR] [--csv OUT.csv]
                               [--query-len=L] [--head-dim=D]
       (BUILD_DIR: where tools/uq-bench-cuda/uq-bench-cuda is; default build;
       --query-len=L profiles the varlen step of L query tokens a sequence,
       uq-bench-cuda's verify and prefill shapes, instead of a decode;
       --head-dim=D the shapes at head dim D)
"""
import collections
import csv
import os
import re
import shutil
import subprocess
import sys
import tempfile


def run_ncu(shape, build, csv_path, bench_args):
    bench = os.path.join(build, "tools", "uq-bench-cuda", "uq-bench-cuda")
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "decode")
        subprocess.run(["ncu", "--clock-control", "none", "--section",
                        "SourceCounters", "--section", "WarpStateStats", "-k",
                        "regex:uq_decode", "-c", "1", "-o", report, bench,
                        "--shape=" + shape] + bench_args,
                       check=True, stdout=subprocess.DEVNULL)
        with open(csv_path, "w") as out:
            subprocess.run(["ncu", "-i", report + ".ncu-rep", "--page",
                            "source", "--csv", "--print-source", "sass"],
                           check=True, stdout=out)


def number(text):
    return int(text.replace(",", "") or 0)


def summarize(csv_path):
    rows = list(csv.reader(open(csv_path)))
    # row 0 names the kernel, row 1 is the header
    header = rows[1]
    col = {name: i for i, name in enumerate(header)}
    stalls = [h for h in header
              if h.startswith("stall_") and "Not Issued" not in h]
    data = [r for r in rows[2:] if len(r) >= len(header)]
    executed = [number(r[col["Instructions Executed"]]) for r in data]
    hottest = max(executed)
    loop = [i for i, e in enumerate(executed) if e >= hottest / 2]
    first, last = loop[0], loop[-1]
    warps = executed[0] or 1  # the entry instruction runs once per warp
    regions = collections.OrderedDict(
        (name, collections.Counter()) for name in ("prologue", "loop",
                                                   "epilogue"))
    loop_ops = collections.Counter()
    for i, r in enumerate(data):
        name = ("prologue" if i < first else
                "loop" if i <= last else "epilogue")
        for s in stalls:
            regions[name][s[6:]] += number(r[col[s]])
        regions[name]["#inst"] += executed[i]
        if name == "loop":
            m = re.match(r"(@!?U?P\w+\s+)?([A-Z0-9_]+)",
                         r[col["Source"]].strip())
            if m:
                loop_ops[m.group(2)] += executed[i]
    total = sum(sum(v for k, v in c.items() if k != "#inst")
                for c in regions.values()) or 1
    print(f"{rows[0][1]}: {warps} warps")
    for name, c in regions.items():
        samples = sum(v for k, v in c.items() if k != "#inst")
        top = ", ".join(f"{k} {v}" for k, v in c.most_common(6)
                        if k != "#inst")
        print(f"  {name:9s} {100 * samples / total:5.1f}% of samples, "
              f"{c['#inst'] / warps:8.0f} instructions per warp; {top}")
    # most of the loop's instructions run once per tile (a few twice, a
    # few only on some tiles): their count is the launch's tile count
    tile_count = collections.Counter(executed[first:last + 1]).most_common(
        1)[0][0]
    print(f"  loop: {tile_count} tiles in all, "
          f"{sum(loop_ops.values()) / tile_count:.0f} instructions per tile "
          "per warp:")
    print("   ", ", ".join(f"{op} {n / tile_count:.1f}"
                           for op, n in loop_ops.most_common(16)))


def main(argv):
    if len(argv) < 2 or argv[1].startswith("-"):
        sys.stderr.write(__doc__)
        return 2
    shape = argv[1]
    if not re.fullmatch(r"\d+,\d+,\d+,\d+", shape):
        sys.stderr.write(f"sm90-profile: '{shape}' is not B,N,HK,QG\n")
        return 2
    build = "build"
    csv_path = None
    bench_args = []
    rest = argv[2:]
    while rest:
        if rest[0] == "--csv" and len(rest) > 1:
            csv_path, rest = rest[1], rest[2:]
        elif re.fullmatch(r"--(query-len|head-dim)=\d+", rest[0]):
            bench_args, rest = bench_args + [rest[0]], rest[1:]
        elif not rest[0].startswith("-"):
            build, rest = rest[0], rest[1:]
        else:
            sys.stderr.write(f"sm90-profile: unknown argument '{rest[0]}'\n")
            return 2
    if shutil.which("ncu") is None:
        sys.stderr.write("sm90-profile: ncu (Nsight Compute) is not on PATH\n")
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        path = csv_path or os.path.join(tmp, "source.csv")
        run_ncu(shape, build, path, bench_args)
        summarize(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
