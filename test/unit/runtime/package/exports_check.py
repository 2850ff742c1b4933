#!/usr/bin/env python3
"""Checks that an installed libuqrt exports every function its installed
headers declare with UQ_API, and nothing else outside the uq_ namespace.

usage: exports_check.py INCLUDE_DIR LIBRARY NM
"""
import pathlib
import re
import subprocess
import sys

DECL = re.compile(r"\bUQ_API\s+[^;(]*?\b(uq_\w+)\s*\(", re.S)


def main(include_dir, library, nm):
    headers = sorted(pathlib.Path(include_dir, "uq").glob("*.h"))
    declared = set()
    for header in headers:
        declared.update(DECL.findall(header.read_text()))
    if not declared:
        sys.exit(f"exports_check: no UQ_API declarations under {include_dir}/uq")
    out = subprocess.run([nm, "-D", "--defined-only", library], check=True,
                         capture_output=True, text=True).stdout
    exported = {line.split()[-1] for line in out.splitlines() if line.strip()}
    exported = {name.split("@")[0] for name in exported}
    missing = sorted(declared - exported)
    stray = sorted(name for name in exported - declared
                   if not name.startswith("_"))
    for name in missing:
        print(f"exports_check: declared but not exported: {name}")
    for name in stray:
        print(f"exports_check: exported but not declared: {name}")
    print(f"exports_check: {len(declared)} declared in {len(headers)} headers,"
          f" {len(missing)} missing, {len(stray)} stray")
    return 1 if missing or stray else 0


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__.strip())
    sys.exit(main(*sys.argv[1:]))
