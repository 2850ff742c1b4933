#!/usr/bin/env python3
"""Where the sm_90a decode's time goes: libuqrt builds with one part taken out.

Each ablation edits a copy of kernels/ (BUILD_DIR/ablated-kernels/; the
real one is never touched), builds libuqrt from it in BUILD_DIR
(configured with -DUQ_KERNEL_SOURCE_DIR pointing at the copy: after the first
build only the kernels are recompiled and libuqrt relinked), and leaves
OUT/<name>/libuqrt.so.0; OUT/base is the unedited source. The outputs of an ablated build are wrong: these libraries
are for timing only, never for the tests. On an H100/H200:

    for v in OUT/*/; do LD_LIBRARY_PATH=$v build/tools/uq-bench-cuda/uq-bench-cuda; done

An edit whose text is no longer in kernels/ fails with its name: update
it here with the kernel.

usage: scripts/sm90-ablate.py OUT [NAME...]   (default: every ablation;
       NAME a+b: both at once, e.g. no-copy+no-decode)
       BUILD_DIR=build-ablate (default) is the build it uses
"""
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def between(text, start, end):
    """The span [index of start, index of end after it) of text."""
    i = text.index(start)
    return i, text.index(end, i)


# Each ablation edits {file name in kernels/: text}: the sm_90a helpers are
# in sm90a.mlir (top level, unindented), the kernel in decode.mlir.
def edit(files, name, fn):
    return {**files, name: fn(files[name])}


def no_copy(files):
    # issue_tile copies nothing: the stages keep stale data.
    def cut(src):
        old = ("  scf.if %unit8 {\n"
               "    func.call @uq_sm90_copy_slots(%c8,")
        i = src.index(old)
        j = src.index("  }\n", src.index("} else {", i)) + len("  }\n")
        return src[:i] + src[j:]
    return edit(files, "sm90a.mlir", cut)


def f2fp_mov(files):
    # K's E4M3 -> f16 conversions (QG <= 8) become moves.
    def moves(src):
        i, j = between(src, "func.func private @uq_sm90_qk_t(",
                       "func.func private @uq_sm90_v_scales(")
        seg = src[i:j]
        cvt = "cvt.rn.f16x2.e4m3x2 $0, $1;"
        if cvt not in seg:
            raise ValueError("no E4M3 -> f16 conversion in @uq_sm90_qk_t")
        return src[:i] + seg.replace(cvt, "mov.b32 $0, {$1, $1};") + src[j:]
    return edit(files, "sm90a.mlir", moves)


def no_k_decode(files):
    # K's code words go to the HMMA as they are (QG <= 8).
    files = f2fp_mov(files)
    src = files["sm90a.mlir"]
    i, j = between(src, "func.func private @uq_sm90_qk_t(",
                   "func.func private @uq_sm90_v_scales(")
    seg = src[i:j]
    for word, res in (("%wg", "%eg"), ("%wh", "%eh")):
        call = (f"{res}:2 = func.call @uq_sm90_fp4_e4m3({word}) : "
                "(i32) -> (i32, i32)")
        if call not in seg:
            raise ValueError(f"no '{call}' in @uq_sm90_qk_t")
        seg = seg.replace(call, "")
        seg = seg.replace(res + "#0", word).replace(res + "#1", word)
    return {**files, "sm90a.mlir": src[:i] + seg + src[j:]}


def no_v_decode(files):
    # @uq_sm90_fp4_bf16x2 returns its register shifted (one instruction).
    def shift(src):
        i, j = between(src, "func.func private @uq_sm90_fp4_bf16x2(",
                       "// The scale bytes (K at %off")
        body = ("func.func private @uq_sm90_fp4_bf16x2(%r: i32, %i: i32) "
                "-> i32 {\n"
                "  %v = arith.shrui %r, %i : i32\n"
                "  return %v : i32\n"
                "}\n\n")
        return src[:i] + body + src[j:]
    return edit(files, "sm90a.mlir", shift)


def no_decode(files):
    # No FP4 decode for any query group: @uq_sm90_fp4_e4m3 hands its word
    # on twice, every E4M3 -> f16 conversion of the decode is a move, and
    # V as no_v_decode.
    def words(src):
        i, j = between(src, "func.func private @uq_sm90_fp4_e4m3(",
                       "// bf16 pair of nibble")
        body = ("func.func private @uq_sm90_fp4_e4m3(%w: i32) -> (i32, i32) {\n"
                "  return %w, %w : i32, i32\n"
                "}\n\n")
        return src[:i] + body + src[j:]
    cvt = ("cvt.rn.f16x2.e4m3x2 $0, $1;", "mov.b32 $0, {$1, $1};")
    # (every conversion of the decode, the query's included, is a helper)
    files = edit(files, "sm90a.mlir",
                 lambda src: words(src).replace(*cvt))
    return no_v_decode(files)


def no_wht(files):
    # Q's Walsh-Hadamard butterflies are skipped (loops of no trips).
    def skip(src):
        for loop, bound in (("%qv1 = scf.for %st = %i0 to %i5", "%i5"),
                            ("%qv2 = scf.for %st = %i0 to %lsh_ix",
                             "%lsh_ix")):
            if src.count(loop) != 1:
                raise ValueError(f"no single '{loop}'")
            src = src.replace(loop, loop.replace("to " + bound, "to %i0"))
        return src
    return edit(files, "sm90a.mlir", skip)  # @uq_sm90_rotate_query


def producer_only(files):
    # The wgmma kernel's consumers (kernels/attention_sm90.mlir, pwg = 1)
    # only take each decoded K and V tile and hand it back: no MMA, no
    # softmax. A prefill chunk then times the producer warpgroup alone (the
    # copy and the decode: issue 40's decoded-tile pipeline), KV bytes read
    # over that time against the copy kernel's bandwidth.
    def cut(src):
        head = ("      %fin:6 = scf.for %k = %i0 to %kcount_ix step %i1 "
                "iter_args(")
        i = src.index(head)
        body = src.index("{\n", i) + 2
        end = src.index("      // the last tile's O += P V", body)
        end = src.rindex("      }\n", body, end)
        taken = (
            "        %ki = arith.index_cast %k : index to i32\n"
            "        %kpar = arith.andi %ki, %c1 : i32\n"
            "        func.call @wg_bar_wait(%b_kfull, %kpar) : (i32, i32) -> ()\n"
            "        func.call @wg_bar_release(%b_kempty) : (i32) -> ()\n"
            "        %stg0 = arith.andi %ki, %c1 : i32\n"
            "        %vb16 = arith.muli %stg0, %c16b : i32\n"
            "        %b_vf = arith.addi %b_vfull, %vb16 : i32\n"
            "        %b_ve = arith.addi %b_vempty, %vb16 : i32\n"
            "        %vuse = arith.shrui %ki, %c1 : i32\n"
            "        %vpar = arith.andi %vuse, %c1 : i32\n"
            "        func.call @wg_bar_wait(%b_vf, %vpar) : (i32, i32) -> ()\n"
            "        func.call @wg_bar_release(%b_ve) : (i32) -> ()\n"
            "        scf.yield %m0, %m1, %l0, %l1, %acc, %pprev : f32, f32, "
            "f32, f32, vector<4x32xf32>, vector<16xi32>\n")
        src = src[:body] + taken + src[end:]
        # every head dim with the producer warpgroup (D 256 too)
        i, j = between(src, "uq.variants = [", "]} {")
        variants = src[i:j]
        if "pwg = " not in variants:
            raise ValueError("no pwg key in attention_sm90.mlir's variants")
        variants = variants.replace("pwg = 0", "pwg = 1").replace(
            "array<i32: 256, 1, 1>", "array<i32: 384, 1, 1>")
        return src[:i] + variants + src[j:]
    return edit(files, "attention_sm90.mlir", cut)


ABLATIONS = {
    "no-copy": (no_copy, "no KV copies (stale shared memory)"),
    "no-k-decode": (no_k_decode, "K code words into the HMMA undecoded"),
    "f2fp-mov": (f2fp_mov, "K's E4M3 -> f16 F2FP replaced by a move"),
    "no-v-decode": (no_v_decode, "V's FP4 -> bf16 one shift instead"),
    "no-decode": (no_decode, "neither K nor V decoded, every query group"),
    "no-wht": (no_wht, "no Walsh-Hadamard rotation of Q"),
    "producer-only": (producer_only, "wgmma kernel: the producer warpgroup "
                      "alone (consumers hand each tile back)"),
}


def ablate(name, files):
    """files with the ablations of name ('a+b': both) applied."""
    for part in name.split("+"):
        files = ABLATIONS[part][0](files)
    return files


def run(cmd, **kw):
    print("+", " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True, **kw)


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        print("\nablations:")
        for name, (_, what) in ABLATIONS.items():
            print(f"  {name:12} {what}")
        return 0 if len(argv) >= 2 else 2
    out = os.path.abspath(argv[1])
    names = argv[2:] or list(ABLATIONS)
    unknown = [p for n in names for p in n.split("+") if p not in ABLATIONS]
    if unknown:
        print(f"sm90-ablate: error: unknown ablation '{unknown[0]}' "
              f"(see --help)", file=sys.stderr)
        return 2
    kernels = os.path.join(ROOT, "kernels")
    source = {}
    for name in sorted(os.listdir(kernels)):
        with open(os.path.join(kernels, name)) as f:
            source[name] = f.read()
    edited = {"base": source}
    for name in names:
        try:
            edited[name] = ablate(name, source)
        except ValueError as e:
            print(f"sm90-ablate: error: ablation {name}: {e} "
                  "(kernels/ changed: update this script)",
                  file=sys.stderr)
            return 1
    build = os.path.abspath(os.environ.get("BUILD_DIR",
                                           os.path.join(ROOT, "build-ablate")))
    # The edited copy lives in the build directory, which stays configured
    # for it.
    os.makedirs(build, exist_ok=True)
    copy = os.path.join(build, "ablated-kernels")
    os.makedirs(copy, exist_ok=True)

    def write(files):
        for name, text in files.items():
            with open(os.path.join(copy, name), "w") as f:
                f.write(text)
    write(source)
    run(["cmake", "-S", ROOT, "-B", build, "-G", "Ninja",
         "-DCMAKE_BUILD_TYPE=RelWithDebInfo", f"-DUQ_KERNEL_SOURCE_DIR={copy}"],
        stdout=subprocess.DEVNULL)
    for name, files in edited.items():
        write(files)
        run(["cmake", "--build", build, "--target", "uqrt"])
        dest = os.path.join(out, name)
        os.makedirs(dest, exist_ok=True)
        shutil.copy(os.path.join(build, "runtime", "libuqrt.so.0"), dest)
        print(f"{name}: {dest}/libuqrt.so.0", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
