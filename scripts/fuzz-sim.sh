#!/bin/sh
# The simulator's full mutation sweep: every byte of every shipped code
# object and of the simulator's test kernels, XOR 0xFF, 0x01, 0x80 and 0x10,
# loaded and launched (sim_mutation_test --full). A benchmark-style command,
# not a test (the test suite runs a timed sample): it prints, per object,
# how many variants loaded, ran, failed with a status or hit the budget, and
# exits non-zero on a crash. Run it on the ASan build to catch memory errors.
#
#   scripts/fuzz-sim.sh [BUILD_DIR]     (default build)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
tool=$build/test/unit/sim/sim_mutation_test
if [ ! -x "$tool" ]; then
  echo "fuzz-sim.sh: error: $tool not found (build first)" >&2
  exit 1
fi
exec "$tool" --full "$build"/kernels/*.hsaco \
  "$build"/test/unit/sim/kernels/sim_kernels.hsaco
