#!/usr/bin/env python3
"""Whether two builds' sm_90a kernels are the same machine code: compares
the .text.<kernel> sections of the cubins of two uq-compile output folders
(or two cubins) byte for byte. A refactor of kernels/ that leaves every
kernel's text the same needs no GPU run to show it changed nothing; PTX
that differs only in the order of independent instructions can still give
different machine code, so the PTX is not the check.

usage: scripts/cubin-text-diff.py A B   (folders of <variant>.cubin, or two
       cubins); exit 0 when every kernel of A is in B with the same text.

Build the folders with `uq-compile KERNELS --target=sm_90a -o DIR` from each
source tree (a CUDA toolkit's ptxas on this machine is enough).
"""

import os
import struct
import sys


def text_sections(path):
    """{section name: bytes} of an ELF64 little-endian file's .text.*."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"\x7fELF" or data[4] != 2:
        raise ValueError(f"{path}: not an ELF64 file")
    shoff = struct.unpack_from("<Q", data, 0x28)[0]
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    headers = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize)
               for i in range(shnum)]
    names = headers[shstrndx][4]
    out = {}
    for h in headers:
        end = data.index(b"\0", names + h[0])
        name = data[names + h[0]:end].decode()
        if name.startswith(".text."):
            out[name] = data[h[4]:h[4] + h[5]]
    return out


def cubins(path):
    if os.path.isfile(path):
        return {os.path.basename(path): path}
    return {n: os.path.join(path, n) for n in sorted(os.listdir(path))
            if n.endswith(".cubin")}


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    a, b = cubins(argv[1]), cubins(argv[2])
    if os.path.isfile(argv[1]) and os.path.isfile(argv[2]):
        b = {next(iter(a)): argv[2]}
    status = 0
    for name, path in a.items():
        if name not in b:
            print(f"gone  {name}")
            status = 1
            continue
        ta, tb = text_sections(path), text_sections(b[name])
        for section in sorted(set(ta) | set(tb)):
            x, y = ta.get(section), tb.get(section)
            same = x == y
            status |= not same
            print(f"{'same' if same else 'DIFF'}  {name} {section} "
                  f"{len(x or b'')} -> {len(y or b'')} B")
    for name in b:
        if name not in a:
            print(f"new   {name}")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
