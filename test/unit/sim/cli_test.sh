#!/bin/sh
# uq-sim's command line: every check prints what failed and exits 1.
# usage: cli_test.sh UQ_SIM KERNELS.hsaco WORKDIR
set -u
sim="$1"; k="$2"; dir="$3"
fail() { echo "FAIL: $*"; exit 1; }

# --help prints the usage and succeeds.
out=$("$sim" --help) || fail "--help exited $?"
echo "$out" | grep -q "^usage: uq-sim" || fail "--help: $out"

# --list names every kernel with its arguments.
out=$("$sim" "$k" --list) || fail "--list exited $?"
echo "$out" | grep -q "kernel valu_ops: kernarg 24 bytes" || fail "--list: $out"
echo "$out" | grep -q "arg 2: n .*size  4 by_value" || fail "--list args: $out"

# A run: control_flow on x = 0..63 from an init file; dump the output and
# check lane 5 (odd, bit 1 clear: x + 7 = 12) and lane 6 (even: sum i*6 for
# i < 6 = 90).
i=0; : > "$dir/cf_in.bin"
while [ $i -lt 64 ]; do
  printf "$(printf '\\%03o\\%03o\\%03o\\%03o' $i 0 0 0)" >> "$dir/cf_in.bin"
  i=$((i + 1))
done
out=$("$sim" "$k" --kernel control_flow --grid 1 --block 64 \
  --buffer 256:"$dir/cf_in.bin" --buffer 256 --i32 0 --i32 0 \
  --dump 1:"$dir/cf_out.bin") || fail "run exited $?: $out"
echo "$out" | grep -q "^wave_instructions [1-9]" || fail "counters: $out"
lane5=$(od -An -tu4 -j20 -N4 "$dir/cf_out.bin" | tr -d ' ')
lane6=$(od -An -tu4 -j24 -N4 "$dir/cf_out.bin" | tr -d ' ')
[ "$lane5" = 12 ] || fail "lane 5 = $lane5"
[ "$lane6" = 90 ] || fail "lane 6 = $lane6"

# --dump into a symbolic link writes the file it names and keeps the link;
# into a FIFO it writes through (issue 29: a temporary renamed over either
# replaced the node).
run_dump() {
  "$sim" "$k" --kernel control_flow --grid 1 --block 64 \
    --buffer 256:"$dir/cf_in.bin" --buffer 256 --i32 0 --i32 0 \
    --dump 1:"$1" >/dev/null
}
rm -f "$dir/dump_link" "$dir/dump_real" "$dir/dump_fifo"
: > "$dir/dump_real"
ln -s dump_real "$dir/dump_link"
run_dump "$dir/dump_link" || fail "--dump into a link exited $?"
[ -L "$dir/dump_link" ] || fail "--dump replaced the symbolic link"
[ "$(wc -c < "$dir/dump_real")" = 256 ] || fail "--dump did not reach the link's file"
mkfifo "$dir/dump_fifo"
cat "$dir/dump_fifo" > "$dir/dump_fifo_out" &
reader=$!
run_dump "$dir/dump_fifo" || fail "--dump into a FIFO exited $?"
[ -p "$dir/dump_fifo" ] || { kill $reader; fail "--dump replaced the FIFO"; }
wait $reader
[ "$(wc -c < "$dir/dump_fifo_out")" = 256 ] || fail "the FIFO's reader got $(wc -c < "$dir/dump_fifo_out") bytes"

# Errors: one line on stderr, exit status 1.
expect_error() {
  pattern="$1"; shift
  err=$("$sim" "$@" 2>&1 >/dev/null); rc=$?
  [ $rc = 1 ] || fail "'$*' exited $rc"
  [ "$(echo "$err" | wc -l)" = 1 ] || fail "'$*' printed: $err"
  echo "$err" | grep -q "^uq-sim: error: .*$pattern" || fail "'$*': $err"
}
expect_error "unknown flag" "$k" --bogus
expect_error "bad --grid" "$k" --grid 0 --block 64
expect_error "required" "$k" --kernel valu_ops
expect_error "global buffer" "$k" --kernel valu_ops --grid 1 --block 64 --i32 1 --buffer 4 --i32 0 --i32 0
expect_error "missing argument 1" "$k" --kernel valu_ops --grid 1 --block 64 --buffer 4
expect_error "takes 4 arguments, got 5" "$k" --kernel valu_ops --grid 1 --block 64 --buffer 4 --buffer 4 --i32 0 --i32 0 --i32 0
expect_error "does not fit" "$k" --kernel valu_ops --grid 1 --block 64 --buffer 4 --buffer 4 --i64 1 --i32 0
expect_error "several kernels" "$k" --grid 1 --block 64
expect_error "not found\|NOT_FOUND\|no kernel" "$k" --kernel nope --grid 1 --block 64
expect_error "No such file\|cannot" "$dir/missing.hsaco" --list
expect_error "unimplemented instruction: 'v_sin_f32" "$k" --kernel unimplemented --grid 1 --block 64 --buffer 4 --buffer 256 --i32 0 --i32 0
echo "uq-sim cli: ok"
