#!/usr/bin/env bash
# Standard input and standard output against GNU sort (issue 30, "Streams"): the same text file
# sorted three ways, by `LC_ALL=C sort`, by this checkout's ./joule and, with --base, by another
# build's launcher (e.g. main's, for a before/after):
#   stdin   cat IN | sort > OUT        a pipe in, standard output out (a regular file here)
#   stdout  sort IN > OUT              a file in, standard output out
#   file    sort -o OUT IN             a file in, a file out
# Medians of N runs, the tools alternating within each round, the page cache dropped before every
# run (as root), every output compared with GNU's. Also counts what each joule run left in its
# temp dir (-T DIR/tmp, emptied before each run): a sort that fits in memory must leave nothing.
#
#   sort-bench/scripts/streams-vs-gnu.sh [-n RUNS] [-d DIR] [-i INPUT] [-S SIZE] [--base ROOT]
#
# Defaults: 5 runs, DIR bench-out/streams, INPUT DIR/in-150m.txt (made once: 150 MB of random
# words, startup-vs-gnu.sh's generator and seed), joule's default memory (-S adds it to joule and
# GNU alike). ROOT is a checkout or unpacked tarball whose `joule` launcher runs the other build.
# Run it under the exclusive CPU lock: `flock -x /tmp/joule-cpu.lock sort-bench/scripts/...`.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
runs=5 dir=$repo/bench-out/streams input="" mem="" base=""
while [ $# -gt 0 ]; do
  case $1 in
    -n) runs=$2; shift 2 ;;
    -d) dir=$2; shift 2 ;;
    -i) input=$2; shift 2 ;;
    -S) mem=$2; shift 2 ;;
    --base) base=$2; shift 2 ;;
    *) sed -n '12,17p' "$0" >&2; exit 2 ;;
  esac
done
export LC_ALL=C
mkdir -p "$dir/tmp"
if [ -z "$input" ]; then
  input=$dir/in-150m.txt
  [ -f "$input" ] || python3 "$repo/sort-bench/scripts/gen-text.py" words 150000000 "$input" --seed 30
fi
log=$dir/times.log
: >"$log"
trap 'rm -f "$dir"/out-*; rm -rf "$dir/tmp"' EXIT
tools=(gnu "new=$repo")
[ -n "$base" ] && tools+=("base=$base")
opts=()
[ -n "$mem" ] && opts=(-S "$mem")
drop() { if [ "$(id -u)" = 0 ]; then sync; echo 3 >/proc/sys/vm/drop_caches; fi; }
# run LABEL MODE COMMAND...: times one sort of $input in MODE into $dir/out-LABEL
run() {
  local label=$1 mode=$2 out=$dir/out-$1
  shift 2
  rm -rf "$dir/tmp" && mkdir -p "$dir/tmp"
  drop
  case $mode in
    stdin) /usr/bin/time -f "$label %e %U %S" -a -o "$log" \
      bash -c 'cat "$1" | "${@:3}" >"$2"' _ "$input" "$out" "$@" ;;
    stdout) /usr/bin/time -f "$label %e %U %S" -a -o "$log" bash -c '"${@:3}" "$1" >"$2"' \
      _ "$input" "$out" "$@" ;;
    file) /usr/bin/time -f "$label %e %U %S" -a -o "$log" "$@" -o "$out" "$input" ;;
  esac
  local left
  left=$(find "$dir/tmp" -mindepth 1 | wc -l)
  [ "$left" = 0 ] || echo "# $label left $left temp entries"
}
# Each joule's start-up cache trained now, in the foreground, and only used during the runs (a
# background training would run beside them).
for t in "${tools[@]}"; do
  [ "${t%%=*}" = gnu ] || JOULE_AOT=train "${t#*=}/joule" --version >/dev/null
done
export JOULE_AOT=use
echo "# $(date -u +%FT%TZ) $(nproc) CPUs; $(sort --version | head -1); input $(stat -c %s "$input") bytes"
echo "# load before: $(cut -d' ' -f1-3 /proc/loadavg)"
n=${#tools[@]}
for ((r = 0; r < runs; r++)); do
  for mode in stdin stdout file; do
    for ((k = 0; k < n; k++)); do
      t=${tools[$(((k + r) % n))]}
      name=${t%%=*}
      if [ "$name" = gnu ]; then
        run "gnu-$mode" "$mode" sort ${opts[@]+"${opts[@]}"} -T "$dir/tmp"
      else
        run "$name-$mode" "$mode" "${t#*=}/joule" sort ${opts[@]+"${opts[@]}"} -T "$dir/tmp"
      fi
    done
    for t in "${tools[@]}"; do
      name=${t%%=*}
      [ "$name" = gnu ] || cmp -s "$dir/out-gnu-$mode" "$dir/out-$name-$mode" ||
        echo "# $name-$mode: output differs from GNU's"
    done
  done
done
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
printf "| %-14s | %8s | %8s | %10s |\n" run "wall s" "CPU s" "wall / GNU"
for label in $(awk '{ print $1 }' "$log" | awk '!seen[$0]++'); do
  w=$(awk -v l="$label" '$1 == l { print $2 }' "$log" | median)
  c=$(awk -v l="$label" '$1 == l { print $3 + $4 }' "$log" | median)
  g=$(awk -v l="gnu-${label#*-}" '$1 == l { print $2 }' "$log" | median)
  ratio=$(awk -v a="$w" -v b="$g" 'BEGIN { if (b > 0) printf "%.2fx", a / b }')
  printf "| %-14s | %8s | %8s | %10s |\n" "$label" "$w" "$c" "$ratio"
done
