#!/usr/bin/env bash
# The issue-27 simulator targets for varlen attention on gfx950: per head
# dim and query group, one sequence of N tokens (default 32768) whose last L
# are a verify chunk (default 4), Hk 1, through uq-run on the sim backend
# (checked against the oracles on the way), against L separate decodes of
# the same shape: wave-instructions per query token and their ratio (the
# decode kernel's; +reduce: the whole step's, the partition reduce added),
# distinct KV bytes per attended token (the cache read once: (D + D/16)),
# and the most bytes of vector loads a wave has in flight (x the waves a CU
# holds at the variant's occupancy: uq-compile's table).
# usage: scripts/bench-varlen-sim.sh [BUILD_DIR] [N] [L]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
n=${2:-32768}
l=${3:-4}
uq_run=$build/tools/uq-run/uq-run
field() { awk -v k="$1" '$1 == k {print $0}' ; }
printf "%4s %3s %-22s %14s %14s %7s %8s %10s %10s\n" D QG variant \
  "instr/token" "decode instr" "ratio" "+reduce" "KV B/tok" "in flight"
for d in 256 128 64; do
  for qg in 8 16; do
    common=(--backend=sim --batch=1 --kv-heads=1 --head-dim=$d --qg=$qg
            --seq-lens=$n --seed=1)
    v=$("$uq_run" "${common[@]}" --query-len="$l")
    r=$("$uq_run" "${common[@]}")
    grep -q "^result *ok" <<<"$v" || { echo "varlen run failed:"; echo "$v"; exit 1; }
    grep -q "^result *ok" <<<"$r" || { echo "decode run failed:"; echo "$r"; exit 1; }
    vi=$(awk '$1 == "sim" && $2 == "decode" {print $3}' <<<"$v")
    ri=$(awk '$1 == "sim" && $2 == "decode" {print $3}' <<<"$r")
    # the whole step: the partition reduce's instructions added on both sides
    vs=$(awk '$1 == "sim" && ($2 == "decode" || $2 == "reduce") {n += $3} END {print n}' <<<"$v")
    rs=$(awk '$1 == "sim" && ($2 == "decode" || $2 == "reduce") {n += $3} END {print n}' <<<"$r")
    var=$(awk '$1 == "variant" {print $2}' <<<"$v")
    kv=$(awk '$1 == "KV" && $2 == "lines" {print $3}' <<<"$v")
    fl=$(awk '$1 == "in" && $2 == "flight" {print $3}' <<<"$v")
    awk -v d=$d -v qg=$qg -v var="$var" -v vi="$vi" -v ri="$ri" -v l=$l \
        -v vs="$vs" -v rs="$rs" -v kv="$kv" -v fl="$fl" 'BEGIN {
      printf "%4d %3d %-22s %14.0f %14.0f %6.2fx %7.2fx %10s %10s\n", d, qg,
             var, vi / l, ri, ri * l / vi, rs * l / vs, kv, fl }'
  done
done
