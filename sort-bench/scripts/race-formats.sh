#!/usr/bin/env bash
# End-to-end race of record formats of the same volume: fixed 100-byte gensort records against
# length-prefixed rows of random length, sorted by joule with the same budget, in one run.
#
#   sort-bench/scripts/race-formats.sh [--bytes N] [--memory SIZE] [--threads T] [--repeat R]
#                                      [--min L] [--max L] [--dir DIR] [--no-drop-caches]
#
# Defaults: 1e9 bytes, --memory 256m, 2 threads, 3 rounds, rows of 10..200 bytes. DIR (default
# bench-out/) receives a private work directory, removed at the end. Each round sorts both inputs,
# alternating which goes first, each in a fresh JVM with the launcher's flags, the page cache
# dropped before every sort when root. Prints per run wall and CPU (user+sys of the JVM), then
# medians, MB/s, CPU-s per GB and the ratio rows / gensort of the median wall times.
set -euo pipefail

bytes=1000000000 memory=256m threads=2 repeat=3 min=10 max=200 dir="" drop=1
while [ $# -gt 0 ]; do
  case "$1" in
    --bytes) bytes=$2; shift 2 ;;
    --memory) memory=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
    --min) min=$2; shift 2 ;;
    --max) max=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    --no-drop-caches) drop=0; shift ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) echo "race-formats: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done

root=$(cd "$(dirname "$0")/../.." && pwd)
jar="$root/sort-bench/target/benchmarks.jar"
[ -f "$jar" ] || { echo "race-formats: $jar missing; run mvn -B -DskipTests package" >&2; exit 2; }
parent=${dir:-$root/bench-out}
mkdir -p "$parent"
dir=$(mktemp -d "$parent/formats.XXXXXX")
mkdir -p "$dir/tmp"
trap 'rm -rf "$dir"' EXIT

if [ "$drop" = 1 ] && [ "$(id -u)" != 0 ]; then
  echo "note: not root, so the page cache is not dropped between runs (results favour cached reads)"
  drop=0
fi
drop_caches() { if [ "$drop" = 1 ]; then sync; echo 3 > /proc/sys/vm/drop_caches; fi; }

java=java
[ -n "${JAVA_HOME:-}" ] && java="$JAVA_HOME/bin/java"
mem_kb=$(awk '/^MemTotal:/ {print $2; exit}' /proc/meminfo)
jvm=("$java" -XX:+UseParallelGC "-XX:MaxDirectMemorySize=${mem_kb}k" -cp "$jar")

records=$(( (bytes + 99) / 100 ))
echo "== $bytes bytes each: $records gensort records; rows of $min..$max bytes; memory $memory, $threads threads, $repeat rounds, in $dir"
"$root/joule" gensort -t"$threads" "$records" "$dir/gensort.in" > /dev/null
"${jvm[@]}" dev.joule.bench.pipeline.GenRows "$dir/rows.in" "$bytes" "$min" "$max"
uptime

run() { # run FORMAT: prints "wall cpu"
  local f=$1 t
  drop_caches
  t=$( { /usr/bin/time -f '%e %U %S' "${jvm[@]}" dev.joule.bench.pipeline.SortOnce \
        "$dir/$f.in" "$dir/$f.out" "$memory" "$threads" "$dir/tmp" --format "$f" > "$dir/$f.log"; } 2>&1 | tail -1)
  rm -f "$dir/$f.out"
  awk '{printf "%.2f %.2f\n", $1, $2 + $3}' <<< "$t"
}

declare -A walls cpus
for i in $(seq 1 "$repeat"); do
  if [ $((i % 2)) = 1 ]; then order="gensort rows"; else order="rows gensort"; fi
  for f in $order; do
    read -r w c < <(run "$f")
    walls[$f]+="$w " cpus[$f]+="$c "
    printf "round %d %-8s wall %6.2f s  cpu %6.2f s  (%s)\n" "$i" "$f" "$w" "$c" "$(grep -o 'runs [0-9]*, passes [0-9]*' "$dir/$f.log")"
  done
done
uptime

median() { tr ' ' '\n' <<< "$1" | grep -v '^$' | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
echo "== medians ($repeat rounds)"
for f in gensort rows; do
  size=$(stat -c %s "$dir/$f.in")
  w=$(median "${walls[$f]}") c=$(median "${cpus[$f]}")
  awk -v f="$f" -v w="$w" -v c="$c" -v s="$size" \
    'BEGIN {printf "%-8s %6.2f s wall  %6.1f MB/s  %6.2f CPU-s  %5.2f CPU-s/GB\n", f, w, s / w / 1e6, c, c / (s / 1e9)}'
done
awk -v a="$(median "${walls[rows]}")" -v b="$(median "${walls[gensort]}")" \
  'BEGIN {printf "rows / gensort wall: %.2fx\n", a / b}'
