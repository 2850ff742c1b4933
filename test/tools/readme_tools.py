"""Runs the README's "Tools" commands as a reader would type them.

The first ```sh block under "## Tools" in README.md, line by line, from a
fresh directory holding links to the build (`build`), the kernels and the
scripts, so the paths read exactly as written there. Lines for an H100/H200
(a `# on an H100/H200` comment) are skipped, and sm_90a lines where no CUDA
toolkit was found. Each must exit 0; the first that does not fails the test
with its command and output.

usage: readme_tools.py SOURCE_DIR BUILD_DIR [--cuda]
"""
import os
import re
import subprocess
import sys
import tempfile


def tools_block(readme):
    text = open(readme, encoding="utf-8").read()
    section = text.split("\n## Tools\n", 1)
    if len(section) != 2:
        raise SystemExit("readme_tools: README.md has no '## Tools' section")
    block = re.search(r"```sh\n(.*?)```", section[1], re.S)
    if not block:
        raise SystemExit("readme_tools: no ```sh block under '## Tools'")
    return [line for line in block.group(1).splitlines() if line.strip()]


def main(argv):
    if len(argv) not in (3, 4) or (len(argv) == 4 and argv[3] != "--cuda"):
        sys.stderr.write(__doc__)
        return 2
    source, build, cuda = argv[1], argv[2], len(argv) == 4
    ran = 0
    with tempfile.TemporaryDirectory() as work:
        for name, target in (("build", build),
                             ("kernels", os.path.join(source, "kernels")),
                             ("scripts", os.path.join(source, "scripts"))):
            os.symlink(target, os.path.join(work, name))
        for line in tools_block(os.path.join(source, "README.md")):
            command, _, comment = line.partition("  #")
            if "H100/H200" in comment or ("sm_90a" in command and not cuda):
                print(f"skipped: {command.strip()}")
                continue
            done = subprocess.run(["bash", "-c", command], cwd=work,
                                  stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True)
            if done.returncode != 0:
                print(f"readme_tools: exit {done.returncode}: {command.strip()}")
                print(done.stdout[-2000:])
                return 1
            print(f"ok: {command.strip()}")
            ran += 1
    print(f"{ran} commands ran")
    return 0 if ran else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
