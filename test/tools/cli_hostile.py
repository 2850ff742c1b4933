#!/usr/bin/env python3
"""The hostile-input table for the command-line tools (issue 13).

Each row runs one tool on one bad input and asserts the exact exit code, a
fragment of the one-line error on stderr, that stderr is that one line, and
that no sanitizer spoke. Run by ctest in the release and the ASan/UBSan
builds (the tools of each build); README "Reliability" lists the rows.

usage: cli_hostile.py --uq-run PATH --uq-compile PATH --uq-opt PATH
                      --uq-sim PATH --uq-bench-cuda PATH --source-dir SRC
                      --scratch DIR [--list]
"""
import argparse
import os
import shutil
import subprocess
import sys


def deep_modules(levels):
    return "module {" * levels + "}" * levels + "\n"


def isa_with(old, new):
    def make(src):
        with open(os.path.join(src, "test", "tools", "isa.mlir")) as f:
            text = f.read()
        if old not in text:
            raise SystemExit(f"test/tools/isa.mlir no longer holds {old!r}")
        return text.replace(old, new)
    return make


# (name, tool, args, input files {name: text or callable(src)}, exit code,
#  stderr fragment, paths that must not exist afterwards)
ROWS = [
    # uq-run: flag values (issue 13 item 5 and the probe's CLI rows)
    ("uq-run --scale=nan", "uq-run", ["--scale=nan"], {}, 1,
     "--scale must be a number in (0, 1], got 'nan'", []),
    ("uq-run --scale=1e37", "uq-run", ["--scale=1e37"], {}, 1,
     "--scale must be a number in (0, 1], got '1e37'", []),
    ("uq-run --scale=-1", "uq-run", ["--scale=-1"], {}, 1,
     "--scale must be a number in (0, 1], got '-1'", []),
    ("uq-run --query-scale=inf", "uq-run", ["--query-scale=inf"], {}, 1,
     "--query-scale must be a number in (0, 16], got 'inf'", []),
    ("uq-run --query-scale=nan", "uq-run", ["--query-scale=nan"], {}, 1,
     "--query-scale must be a number in (0, 16], got 'nan'", []),
    ("uq-run scale x query-scale > 1", "uq-run",
     ["--scale=1", "--query-scale=2"], {}, 1,
     "--scale x --query-scale = 2 is above 1", []),
    ("uq-run --head-dim=64 scale x query-scale > 2", "uq-run",
     ["--head-dim=64", "--scale=1", "--query-scale=2.5"], {}, 1,
     "--scale x --query-scale = 2.5 is above 2", []),
    ("uq-run --batch=0", "uq-run", ["--batch=0"], {}, 1,
     "--batch must be in 1..4096, got '0'", []),
    ("uq-run --batch=2^66", "uq-run", ["--batch=99999999999999999999"], {}, 1,
     "--batch must be in 1..4096", []),
    ("uq-run --max-seq=0", "uq-run", ["--max-seq=0"], {}, 1,
     "--max-seq must be in 1..1048576, got '0'", []),
    ("uq-run --seq-lens=1,,2", "uq-run", ["--seq-lens=1,,2"], {}, 1,
     "--seq-lens must be a comma-separated list", []),
    ("uq-run --seq-lens=-5", "uq-run", ["--seq-lens=-5"], {}, 1,
     "--seq-lens must be a comma-separated list of up to 4096 lengths in 0..1048576, got '-5'", []),
    ("uq-run --sliding-window=-1", "uq-run", ["--sliding-window=-1"], {}, 1,
     "--sliding-window must be in 0..2147483647", []),
    ("uq-run --seed=-1", "uq-run", ["--seed=-1"], {}, 1,
     "--seed must be a non-negative integer", []),
    ("uq-run --backend=tpu", "uq-run", ["--backend=tpu"], {}, 1,
     "--backend must be", []),
    ("uq-run --padded-slot=270", "uq-run",
     ["--backend=host", "--padded-slot=270"], {}, 1,
     "padded_slot must be >= 272 (head dim 256) and a multiple of 4, got 270",
     []),
    ("uq-run --block-size=24", "uq-run", ["--backend=host", "--block-size=24"],
     {}, 1, "block_size 24 is not a power of two", []),
    ("uq-run 2^32 tokens x 64 heads", "uq-run",
     ["--backend=host", "--batch=4096", "--max-seq=1048576", "--kv-heads=64"],
     {}, 1, "RESOURCE_EXHAUSTED: the problem needs", []),
    ("uq-run --frobnicate", "uq-run", ["--frobnicate=1"], {}, 1,
     "unknown flag '--frobnicate=1'", []),
    ("uq-run --scale (no value)", "uq-run", ["--scale"], {}, 1,
     "unknown flag or missing value: '--scale'", []),
    # uq-compile: names that become file names (item 4), nesting (item 6)
    ("uq-compile module @\"../escaped\"", "uq-compile",
     ["escaped.mlir", "-o", "out"],
     {"escaped.mlir": isa_with("gpu.module @uq_isa",
                               'gpu.module @"../escaped"')}, 1,
     "variant name '../escaped_qg8' of gpu.module '../escaped' is not a "
     "plain identifier", ["escaped_qg8.hsaco", "escaped_qg8.json"]),
    ("uq-compile module @\"a/b\"", "uq-compile", ["slash.mlir", "-o", "out"],
     {"slash.mlir": isa_with("gpu.module @uq_isa", 'gpu.module @"a/b"')}, 1,
     "is not a plain identifier", ["out/a"]),
    ("uq-compile duplicate variant", "uq-compile", ["twice.mlir", "-o", "out"],
     {"twice.mlir": isa_with("uq.variants = [{qg = 8}]",
                             "uq.variants = [{qg = 8}, {qg = 8}]")}, 1,
     "variant 'isa_qg8' is declared twice", ["out/isa_qg8.hsaco"]),
    ("uq-compile negative variant value", "uq-compile",
     ["negative.mlir", "-o", "out"],
     {"negative.mlir": isa_with("uq.variants = [{qg = 8}]",
                                "uq.variants = [{qg = -8}]")}, 1,
     "uq.variants value -8 is out of range", []),
    ("uq-compile 10000 nested modules", "uq-compile",
     ["deep.mlir", "-o", "out"], {"deep.mlir": deep_modules(10000)}, 1,
     "deep.mlir: error: input nests 10000 levels of brackets deep, more "
     "than the limit of 256", []),
    ("uq-compile 10000 nested arrays", "uq-compile",
     ["deeparray.mlir", "-o", "out"],
     {"deeparray.mlir": '"t.op"() {a = ' + "[" * 10000 + "]" * 10000 +
      "} : () -> ()\n"}, 1, "input nests 10001 levels", []),
    ("uq-compile no -o", "uq-compile", ["x.mlir"], {"x.mlir": "module {}\n"},
     1, "no output: pass -o DIR and/or --embed-c=FILE", []),
    ("uq-compile -o missing dir", "uq-compile",
     ["x.mlir", "-o", "missing/dir"], {"x.mlir": "module {}\n"}, 1,
     "output directory", []),
    # uq-opt: nesting (item 6), bad files and passes
    ("uq-opt 10000 nested modules", "uq-opt", ["deep.mlir"],
     {"deep.mlir": deep_modules(10000)}, 1,
     "deep.mlir: error: input nests 10000 levels of brackets deep", []),
    ("uq-opt 100000 nested regions", "uq-opt", ["deepregion.mlir"],
     {"deepregion.mlir": '"t.op"() ' + "({" * 100000 + "})" * 100000 +
      " : () -> ()\n"}, 1, "input nests 200000 levels", []),
    ("uq-opt unknown pass", "uq-opt", ["x.mlir", "--no-such-pass"],
     {"x.mlir": "module {}\n"}, 1, "unknown pass 'no-such-pass'", []),
    ("uq-opt missing file", "uq-opt", ["missing.mlir"], {}, 1,
     "cannot open 'missing.mlir'", []),
    # uq-bench-cuda: flags, refused before the driver is opened (no GPU
    # needed)
    ("uq-bench-cuda --shape=1,2,3", "uq-bench-cuda", ["--shape=1,2,3"], {}, 1,
     "--shape must be B,N,HK,QG (positive integers", []),
    ("uq-bench-cuda --shape=0,16,1,8", "uq-bench-cuda", ["--shape=0,16,1,8"],
     {}, 1, "got '0,16,1,8'", []),
    ("uq-bench-cuda --shape=1,16,1,17", "uq-bench-cuda",
     ["--shape=1,16,1,17"], {}, 1, "QG <= 16), got '1,16,1,17'", []),
    ("uq-bench-cuda --shape=1,16,1,8x", "uq-bench-cuda",
     ["--shape=1,16,1,8x"], {}, 1, "got '1,16,1,8x'", []),
    ("uq-bench-cuda --shape and --case", "uq-bench-cuda",
     ["--shape=1,16,1,8", "--case=2"], {}, 1,
     "--case and --shape exclude each other", []),
    ("uq-bench-cuda --head-dim=96", "uq-bench-cuda", ["--head-dim=96"], {}, 1,
     "--head-dim must be 64, 128 or 256, got '96'", []),
    ("uq-bench-cuda --case=8", "uq-bench-cuda", ["--case=8"], {}, 1,
     "--case must be an integer in 0..7, got '8'", []),
    ("uq-bench-cuda --frobnicate", "uq-bench-cuda", ["--frobnicate"], {}, 1,
     "unknown argument '--frobnicate'", []),
    # uq-sim: files that are not code objects
    ("uq-sim random bytes", "uq-sim", ["junk.hsaco", "--list"],
     {"junk.hsaco": "\x01\x02garbage" * 300}, 1, "not an ELF file", []),
    ("uq-sim empty file", "uq-sim", ["empty.hsaco", "--list"],
     {"empty.hsaco": ""}, 1, "empty.hsaco", []),
]

TOOLS = ("uq-run", "uq-compile", "uq-opt", "uq-sim", "uq-bench-cuda")

SANITIZER_WORDS = ("AddressSanitizer", "LeakSanitizer", "runtime error:",
                   "UndefinedBehaviorSanitizer")


def main():
    parser = argparse.ArgumentParser()
    for tool in TOOLS:
        parser.add_argument("--" + tool)
    parser.add_argument("--source-dir")
    parser.add_argument("--scratch")
    parser.add_argument("--list", action="store_true")
    args = parser.parse_args()
    if args.list:
        for row in ROWS:
            print(f"{row[0]}: exit {row[4]}, \"{row[5]}\"")
        return 0
    tools = {name: getattr(args, name.replace("-", "_"))
             for name in TOOLS}
    if None in tools.values() or not args.source_dir or not args.scratch:
        parser.error("every tool, --source-dir and --scratch are needed")
    failed = 0
    for index, row in enumerate(ROWS):
        name, tool, argv, files, code, fragment, absent = row
        scratch = os.path.join(args.scratch, str(index))
        shutil.rmtree(scratch, ignore_errors=True)
        os.makedirs(os.path.join(scratch, "out"))
        for file_name, text in files.items():
            if callable(text):
                text = text(args.source_dir)
            with open(os.path.join(scratch, file_name), "w") as f:
                f.write(text)
        try:
            result = subprocess.run([tools[tool]] + argv, cwd=scratch,
                                    capture_output=True, text=True,
                                    timeout=300)
        except subprocess.TimeoutExpired:
            print(f"FAIL {name}: no answer in 300 s")
            failed += 1
            continue
        err = result.stderr
        lines = err.splitlines()
        problems = []
        if result.returncode != code:
            problems.append(f"exit {result.returncode}, expected {code}")
        if fragment not in err:
            problems.append(f"stderr lacks {fragment!r}")
        if len(lines) != 1:
            problems.append(f"stderr has {len(lines)} lines, expected 1")
        if any(word in err for word in SANITIZER_WORDS):
            problems.append("a sanitizer reported")
        for path in absent:
            if os.path.exists(os.path.join(scratch, path)):
                problems.append(f"{path} was written")
        if problems:
            failed += 1
            print(f"FAIL {name}: " + "; ".join(problems))
            print("  stderr: " + "\n          ".join(lines[:8]))
        else:
            print(f"ok   {name}: exit {code}: {lines[0]}")
    print(f"{len(ROWS) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
