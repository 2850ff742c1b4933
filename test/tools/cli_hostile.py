#!/usr/bin/env python3
"""The hostile-input table for the command-line tools (issue 13).

Each row runs one tool on one bad input and asserts the exact exit code, a
fragment of the one-line error on stderr, that stderr is that one line, and
that no sanitizer spoke. Run by ctest in the release and the ASan/UBSan
builds (the tools of each build); docs/reliability.md lists the rows.

usage: cli_hostile.py --uq-run PATH --uq-compile PATH --uq-opt PATH
                      --uq-sim PATH --uq-bench-cuda PATH --source-dir SRC
                      --sim-kernels HSACO --scratch DIR [--list]
"""
import argparse
import os
import shutil
import stat
import subprocess
import sys
import threading


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


# The kernel source folder's files, by name (kernels/ has no subfolders).
KERNEL_FILES = sorted(os.listdir(os.path.join(os.path.dirname(
    os.path.abspath(__file__)), "..", "..", "kernels")))


def kernel_folder(old=None, new=None):
    """Input files k/<name> copying kernels/, with the first occurrence of
    `old` (in path order) replaced by `new`."""
    def make(name):
        def read(src):
            texts = {}
            for n in KERNEL_FILES:
                with open(os.path.join(src, "kernels", n)) as f:
                    texts[n] = f.read()
            if old is None:
                return texts[name]
            holder = next((n for n in KERNEL_FILES if old in texts[n]), None)
            if holder is None:
                raise SystemExit(f"kernels/ no longer holds {old!r}")
            return (texts[name].replace(old, new, 1) if name == holder else
                    texts[name])
        return read
    return {f"k/{n}": make(n) for n in KERNEL_FILES}


def char_device(scratch, name, minor):
    """A character device in the scratch directory: a copy of /dev/null
    (minor 3) or /dev/full (minor 7) when mknod is allowed (root), else
    the system's own node, which a non-root tool cannot replace anyway."""
    path = os.path.join(scratch, name)
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, minor))
        return path
    except OSError:
        return {3: "/dev/null", 7: "/dev/full"}[minor]


DEVICES = []  # the device of the row being run


def output_to_device(name, minor):
    """Setup for a row whose output is a character device: the argument
    list takes the device's path in place of the word DEVICE."""
    def setup(scratch):
        DEVICES[:] = [char_device(scratch, name, minor)]
        return DEVICES[0]
    return setup


def still_char_device(scratch, argv):
    return [f"{d} is no longer a character device" for d in DEVICES
            if not stat.S_ISCHR(os.lstat(d).st_mode)]


def make_link(target):
    def setup(scratch):
        os.symlink(target, os.path.join(scratch, "link.mlir"))
        if target == "real.mlir":
            with open(os.path.join(scratch, "real.mlir"), "w") as f:
                f.write("old\n")
    return setup


def link_kept(scratch, argv):
    link = os.path.join(scratch, "link.mlir")
    problems = []
    if not os.path.islink(link):
        problems.append("link.mlir was replaced by a regular file")
    real = os.path.join(scratch, "real.mlir")
    if os.path.exists(real):
        with open(real) as f:
            if "gpu.module" not in f.read():
                problems.append("real.mlir did not get the output")
    return problems


class FifoReader:
    """A FIFO in the scratch directory with a reader thread, so a tool
    writing to it does not block; check() asserts it stayed a FIFO and
    received the output."""

    def __init__(self):
        self.data = b""
        self.thread = None

    def setup(self, scratch):
        path = os.path.join(scratch, "out.fifo")
        os.mkfifo(path)
        def read():
            with open(path, "rb") as f:
                self.data = f.read()
        self.thread = threading.Thread(target=read, daemon=True)
        self.thread.start()

    def check(self, scratch, argv):
        path = os.path.join(scratch, "out.fifo")
        problems = []
        if not stat.S_ISFIFO(os.lstat(path).st_mode):
            problems.append("out.fifo is no longer a FIFO")
            with open(path, "wb"):
                pass  # release the reader
        self.thread.join(10)
        if b"gpu.module" not in self.data:
            problems.append(f"the FIFO's reader got {len(self.data)} bytes")
        return problems


FIFO = FifoReader()

# (name, tool, args, input files {name: text or callable(src)}, exit code,
#  stderr fragment, paths that must not exist afterwards[, extra]). extra:
#  "setup": callable(scratch), returning a path that replaces the word
#  DEVICE in args; "stdout": a path stdout is opened on; "check":
#  callable(scratch, args) -> problems. A row with exit 0 expects an empty
#  stderr.
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
    ("uq-run --head-dim=1024", "uq-run", ["--head-dim=1024"], {}, 1,
     "head_dim 1024 is not supported (32, 64, 128, 256 or 512)", []),
    ("uq-run --batch=0", "uq-run", ["--batch=0"], {}, 1,
     "--batch must be in 1..4096, got '0'", []),
    ("uq-run --batch=2^66", "uq-run", ["--batch=99999999999999999999"], {}, 1,
     "--batch must be in 1..4096", []),
    ("uq-run --batch=0x10", "uq-run", ["--batch=0x10"], {}, 1,
     "--batch must be in 1..4096, got '0x10'", []),
    ("uq-run --batch=' 4'", "uq-run", ["--batch= 4"], {}, 1,
     "--batch must be in 1..4096, got ' 4'", []),
    ("uq-run --batch=+4", "uq-run", ["--batch=+4"], {}, 1,
     "--batch must be in 1..4096, got '+4'", []),
    ("uq-run --seed=0x10", "uq-run", ["--seed=0x10"], {}, 1,
     "--seed must be a non-negative integer, got '0x10'", []),
    ("uq-run --seq-lens=4,0x10", "uq-run", ["--seq-lens=4,0x10"], {}, 1,
     "--seq-lens must be a comma-separated list of up to 4096 lengths in "
     "0..1048576, got '4,0x10'", []),
    ("uq-run --scale=0x1p-4", "uq-run", ["--scale=0x1p-4"], {}, 1,
     "--scale must be a number in (0, 1], got '0x1p-4'", []),
    ("uq-run --scale=' 0.1'", "uq-run", ["--scale= 0.1"], {}, 1,
     "--scale must be a number in (0, 1], got ' 0.1'", []),
    ("uq-run --scale=0.8 (above ln 2)", "uq-run",
     ["--backend=host", "--scale=0.8"], {}, 1,
     "softmax_scale 0.8 is above ln 2 = 0.6931", []),
    # uq-run's varlen flags
    ("uq-run --query-len=0", "uq-run", ["--query-len=0"], {}, 1,
     "--query-len must be in 1..65536, got '0'", []),
    ("uq-run --query-lens longer than --seq-lens", "uq-run",
     ["--seq-lens=5,9", "--query-lens=3,10"], {}, 1,
     "--query-lens: a query longer than its sequence (sequence 1: 10 query "
     "tokens, length 9)", []),
    ("uq-run --query-lens without --seq-lens", "uq-run",
     ["--query-lens=3,10"], {}, 1,
     "--query-lens needs --seq-lens of as many sequences", []),
    ("uq-run --query-len with --mixed", "uq-run",
     ["--query-len=4", "--mixed"], {}, 1,
     "--query-len, --query-lens and --mixed exclude each other", []),
    ("uq-run --steps with --query-len", "uq-run",
     ["--steps=2", "--query-len=4"], {}, 1,
     "--steps runs decodes: it excludes --query-len", []),
    ("uq-run --mixed --batch=3", "uq-run", ["--mixed", "--batch=3"], {}, 1,
     "--mixed needs --batch (or --seq-lens) of at least 4", []),
    ("uq-run --dtype=f32", "uq-run", ["--dtype=f32"], {}, 1,
     "--dtype must be bf16 or f16, got 'f32'", []),
    ("uq-run --dtype=", "uq-run", ["--dtype="], {}, 1,
     "--dtype must be bf16 or f16, got ''", []),
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
    ("uq-compile module @\"\"", "uq-compile", ["empty.mlir", "-o", "out"],
     {"empty.mlir": isa_with("gpu.module @uq_isa", 'gpu.module @""')}, 1,
     "gpu.module has an empty symbol name",
     ["out/_qg8.hsaco", "out/_qg8.json"]),
    ("uq-compile module name of 64 bytes", "uq-compile",
     ["long.mlir", "-o", "out"],
     {"long.mlir": isa_with("gpu.module @uq_isa", "gpu.module @" + "m" * 64)},
     1, "gpu.module name of 64 bytes is longer than 63", []),
    ("uq-compile variant key of 32 characters", "uq-compile",
     ["long.mlir", "-o", "out"],
     {"long.mlir": isa_with("gpu.module @uq_isa",
                            "gpu.module @uq_" + "m" * 28)},
     1, "variant key '" + "m" * 28 + "_qg8' is 32 characters; the runtime's "
     "records hold at most 31", []),
    ("uq-compile decode qg_max 17", "uq-compile",
     ["k", "-o", "out"],
     kernel_folder("{d = 256, qg_max = 16}", "{d = 256, qg_max = 17}"), 1,
     "qg_max = 17 is outside 1..16, the query groups the runtime selects "
     "decode records for", ["out/decode_d64_qg_max16.hsaco"]),
    ("uq-compile decode qg_max 64", "uq-compile",
     ["k", "--embed-c=out/e.c"],
     kernel_folder("{d = 256, qg_max = 8}", "{d = 256, qg_max = 64}"), 1,
     "qg_max = 64 is outside 1..16", ["out/e.c"]),
    ("uq-compile reduce for head dim 96", "uq-compile",
     ["k", "-o", "out"],
     kernel_folder("uq.variants = [{d = 32}, {d = 64}, {d = 128}, "
                   "{d = 256}, {d = 512}]",
                   "uq.variants = [{d = 96}, {d = 128}, {d = 256}]"),
     1, "variant 'reduce_d96': head dim d = 96 is not one the runtime selects",
     []),
    ("uq-compile variant for a target the module lacks", "uq-compile",
     ["k", "-o", "out"],
     kernel_folder("{d = 512, target = 0}", "{d = 512, target = 2}"), 1,
     "uq.variants target must index the module's targets", []),
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
     "--head-dim must be 32, 64, 128, 256 or 512, got '96'", []),
    ("uq-bench-cuda --case=8", "uq-bench-cuda", ["--case=8"], {}, 1,
     "--case must be an integer in 0..7, got '8'", []),
    ("uq-bench-cuda --dtype=f32", "uq-bench-cuda", ["--dtype=f32"], {}, 1,
     "--dtype must be bf16 or f16, got 'f32'", []),
    ("uq-bench-cuda --frobnicate", "uq-bench-cuda", ["--frobnicate"], {}, 1,
     "unknown argument '--frobnicate'", []),
    # uq-sim: files that are not code objects
    ("uq-sim random bytes", "uq-sim", ["junk.hsaco", "--list"],
     {"junk.hsaco": "\x01\x02garbage" * 300}, 1, "not an ELF file", []),
    ("uq-sim empty file", "uq-sim", ["empty.hsaco", "--list"],
     {"empty.hsaco": ""}, 1, "empty.hsaco", []),
    # outputs that name a device, a FIFO or a symbolic link (issue 29 item
    # 2): the node stays what it was
    ("uq-opt -o a character device (/dev/null)", "uq-opt",
     ["x.mlir", "-o", "DEVICE"], {"x.mlir": "gpu.module @m {}\n"}, 0, "", [],
     {"setup": output_to_device("null.dev", 3), "check": still_char_device}),
    ("uq-opt -o /dev/full", "uq-opt", ["x.mlir", "-o", "DEVICE"],
     {"x.mlir": "gpu.module @m {}\n"}, 1, "No space left on device", [],
     {"setup": output_to_device("full.dev", 7), "check": still_char_device}),
    ("uq-opt -o a FIFO", "uq-opt", ["x.mlir", "-o", "out.fifo"],
     {"x.mlir": "gpu.module @m {}\n"}, 0, "", [],
     {"setup": FIFO.setup, "check": FIFO.check}),
    ("uq-opt -o a symbolic link", "uq-opt", ["x.mlir", "-o", "link.mlir"],
     {"x.mlir": "gpu.module @m {}\n"}, 0, "", [],
     {"setup": make_link("real.mlir"), "check": link_kept}),
    ("uq-opt -o a dangling symbolic link", "uq-opt",
     ["x.mlir", "-o", "link.mlir"], {"x.mlir": "gpu.module @m {}\n"}, 1,
     "cannot write 'link.mlir': a symbolic link to a missing file",
     ["missing.mlir"], {"setup": make_link("missing.mlir"),
                        "check": link_kept}),
    ("uq-opt -o a directory", "uq-opt", ["x.mlir", "-o", "out"],
     {"x.mlir": "gpu.module @m {}\n"}, 1,
     "cannot write 'out': it is a directory", []),
    ("uq-compile --embed-c=/dev/full", "uq-compile",
     ["k", "--variant=reduce_d64", "--embed-c=DEVICE"],
     kernel_folder(), 1,
     "No space left on device", [],
     {"setup": output_to_device("full.dev", 7), "check": still_char_device}),
    # stdout on /dev/full: the exit-time flush fails the tool
    ("uq-run > /dev/full", "uq-run", ["--backend=host"], {}, 1,
     "uq-run: error: cannot write to stdout", [], {"stdout": "/dev/full"}),
    ("uq-compile --list > /dev/full", "uq-compile", ["isa.mlir", "--list"],
     {"isa.mlir": isa_with("", "")}, 1,
     "uq-compile: error: cannot write to stdout: No space left on device", [],
     {"stdout": "/dev/full"}),
    ("uq-sim --list > /dev/full", "uq-sim", ["SIM_KERNELS", "--list"], {}, 1,
     "uq-sim: error: cannot write to stdout: No space left on device", [],
     {"stdout": "/dev/full"}),
    ("uq-opt > /dev/full", "uq-opt", ["x.mlir"],
     {"x.mlir": "gpu.module @m {}\n"}, 1,
     "uq-opt: error: cannot write to stdout", [], {"stdout": "/dev/full"}),
]

TOOLS = ("uq-run", "uq-compile", "uq-opt", "uq-sim", "uq-bench-cuda")

SANITIZER_WORDS = ("AddressSanitizer", "LeakSanitizer", "runtime error:",
                   "UndefinedBehaviorSanitizer")


def main():
    parser = argparse.ArgumentParser()
    for tool in TOOLS:
        parser.add_argument("--" + tool)
    parser.add_argument("--source-dir")
    parser.add_argument("--sim-kernels")
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
        name, tool, argv, files, code, fragment, absent = row[:7]
        extra = row[7] if len(row) > 7 else {}
        scratch = os.path.join(args.scratch, str(index))
        shutil.rmtree(scratch, ignore_errors=True)
        os.makedirs(os.path.join(scratch, "out"))
        for file_name, text in files.items():
            if callable(text):
                text = text(args.source_dir)
            path = os.path.join(scratch, file_name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(text)
        device = extra["setup"](scratch) if "setup" in extra else None
        argv = [a.replace("DEVICE", device) if device else a for a in argv]
        argv = [a.replace("SIM_KERNELS", args.sim_kernels or "")
                for a in argv]
        stdout = open(extra["stdout"], "w") if "stdout" in extra else None
        try:
            result = subprocess.run([tools[tool]] + argv, cwd=scratch,
                                    stdout=stdout or subprocess.PIPE,
                                    stderr=subprocess.PIPE, text=True,
                                    timeout=300)
        except subprocess.TimeoutExpired:
            print(f"FAIL {name}: no answer in 300 s")
            failed += 1
            continue
        finally:
            if stdout:
                stdout.close()
        err = result.stderr
        lines = err.splitlines()
        problems = []
        if result.returncode != code:
            problems.append(f"exit {result.returncode}, expected {code}")
        if fragment not in err:
            problems.append(f"stderr lacks {fragment!r}")
        if len(lines) != (1 if code else 0):
            problems.append(f"stderr has {len(lines)} lines, expected "
                            f"{1 if code else 0}")
        if "check" in extra:
            problems += extra["check"](scratch, argv)
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
            print(f"ok   {name}: exit {code}: "
                  f"{lines[0] if lines else '(no error)'}")
    print(f"{len(ROWS) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
