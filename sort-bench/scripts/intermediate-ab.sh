#!/usr/bin/env bash
# A/B of the intermediate merge passes on 1 thread against 2 (docs/decisions/D24): the same gensort
# input sorted by `joule sort --stats` with --threads 1 and --threads 2, alternating which goes
# first, the page cache dropped before every sort when root.
#
#   sort-bench/scripts/intermediate-ab.sh [--records N] [--memory SIZE] [--fan-in F] [--repeat R]
#                                         [--dir DIR]
#
# Defaults: 10^7 records (1 GB), --memory 24m, the plan's fan-in, 3 rounds. DIR (default
# bench-out/) receives a private work directory, removed at the end. Prints per sort the wall and
# CPU seconds of the intermediate passes (every "merge pass" row but the final one, summed) and of
# the whole sort, then the medians per thread count.
set -euo pipefail

records=10000000 memory=24m fanin="" repeat=3 dir=""
while [ $# -gt 0 ]; do
  case "$1" in
    --records) records=$2; shift 2 ;;
    --memory) memory=$2; shift 2 ;;
    --fan-in) fanin="--fan-in $2"; shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) echo "intermediate-ab: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done

root=$(cd "$(dirname "$0")/../.." && pwd)
parent=${dir:-$root/bench-out}
mkdir -p "$parent"
dir=$(mktemp -d "$parent/intermediate.XXXXXX")
mkdir -p "$dir/tmp"
trap 'rm -rf "$dir"' EXIT
drop_caches() { if [ "$(id -u)" = 0 ]; then sync; echo 3 > /proc/sys/vm/drop_caches; fi; }

"$root/joule" gensort -t2 "$records" "$dir/in" > /dev/null
"$root/joule" sort --gensort --memory "$memory" $fanin --threads 2 --explain -T "$dir/tmp" \
  -o "$dir/out" "$dir/in" | grep -E '^plan:|^  pass'
uptime

run() { # run THREADS: prints "threads pass-wall pass-cpu total-wall total-cpu widths"
  drop_caches
  "$root/joule" sort --gensort --memory "$memory" $fanin --threads "$1" --stats -T "$dir/tmp" \
    -o "$dir/out" "$dir/in" 2>&1 >/dev/null | awk -v t="$1" '
      /^merge pass/ && !/final/ { w += $(NF-8); c += $(NF-7); match($0, /\([0-9]+ at a time\)/);
                                  widths = widths substr($0, RSTART + 1, RLENGTH - 12) "," }
      /^total/ { tw = $2; tc = $3 }
      END { printf "%s %.3f %.3f %.3f %.3f %s\n", t, w, c, tw, tc, widths }'
  rm -f "$dir/out"
}

results=()
for ((i = 0; i < repeat; i++)); do
  if ((i % 2 == 0)); then order="1 2"; else order="2 1"; fi
  for t in $order; do
    r=$(run "$t")
    echo "round $i: threads $r"
    results+=("$r")
  done
done

median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
for t in 1 2; do
  rows=$(printf '%s\n' "${results[@]}" | awk -v t="$t" '$1 == t')
  echo "threads $t: intermediate passes wall $(awk '{print $2}' <<< "$rows" | median) s," \
    "CPU $(awk '{print $3}' <<< "$rows" | median) s; whole sort wall" \
    "$(awk '{print $4}' <<< "$rows" | median) s, CPU $(awk '{print $5}' <<< "$rows" | median) s"
done
