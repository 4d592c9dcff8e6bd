#!/usr/bin/env bash
# Everyday sorts against GNU sort, start-up included: `./joule sort -o OUT IN` on JDK 17 and on
# JDK 25 (each with its start-up cache: AppCDS on 17, the AOT cache on 25, trained first) against
# `LC_ALL=C sort -o OUT IN`, for inputs of 1 KB, 10 MB and 150 MB of text lines (gen-text.py's
# words), medians of N runs, the three alternating, the page cache dropped before each run of a
# 10 MB or larger input (as root). Also the JVM's floor: `java -version` and an empty main with the
# launcher's flags and the JDK's default CDS archive.
#
#   sort-bench/scripts/startup-vs-gnu.sh [-n RUNS] [-d DIR] [--jdk17 PATH] [--jdk25 PATH]
#
# Every run is timed by /usr/bin/time (wall, user + sys CPU-seconds). Run it under the exclusive
# CPU lock on a quiet machine: `flock -x /tmp/joule-cpu.lock sort-bench/scripts/startup-vs-gnu.sh`.
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=5 dir=${TMPDIR:-/tmp}/joule-startup jdk17=/usr/lib/jvm/java-17-openjdk-amd64
jdk25=/usr/lib/jvm/temurin-25-jdk-amd64
while [ $# -gt 0 ]; do
  case $1 in
    -n) runs=$2; shift 2 ;;
    -d) dir=$2; shift 2 ;;
    --jdk17) jdk17=$2; shift 2 ;;
    --jdk25) jdk25=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
mkdir -p "$dir"
log=$dir/times.log
: >"$log"
export LC_ALL=C
# inputs: random words, 1 KB, 10 MB, 150 MB (made once)
for size in 1000 10000000 150000000; do
  f=$dir/in-$size.txt
  [ -f "$f" ] || python3 sort-bench/scripts/gen-text.py words "$size" "$f" --seed 30
done
for jdk in "$jdk17" "$jdk25"; do
  JAVA_HOME=$jdk JOULE_AOT=train ./joule --version >/dev/null
done
empty=$dir/empty
mkdir -p "$empty"
printf 'public class Empty { public static void main(String[] a) {} }\n' >"$empty/Empty.java"
"$jdk17/bin/javac" --release 17 -d "$empty" "$empty/Empty.java"
drop() { [ "$1" -lt 10000000 ] || { sync; echo 3 >/proc/sys/vm/drop_caches; } 2>/dev/null || true; }
timed() { # label, command...
  local label=$1
  shift
  /usr/bin/time -f "$label %e %U %S" -a -o "$log" "$@" >/dev/null 2>&1
}
echo "# $(date -u +%FT%TZ) $(nproc) CPUs; GNU $(sort --version | head -1)"
echo "# load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for ((i = 0; i < runs; i++)); do
  for jdk in "$jdk17" "$jdk25"; do
    v=$("$jdk/bin/java" -version 2>&1 | awk -F'"' 'NR == 1 { split($2, a, "."); print a[1] }')
    timed "floor-version-jdk$v" "$jdk/bin/java" -Xshare:auto -XX:+UseParallelGC -Xms32m -version
    timed "floor-empty-main-jdk$v" "$jdk/bin/java" -Xshare:auto -XX:+UseParallelGC -Xms32m \
      -cp "$empty" Empty
  done
  for size in 1000 10000000 150000000; do
    in=$dir/in-$size.txt
    drop "$size"
    timed "gnu-$size" sort -o "$dir/out-gnu" "$in"
    for jdk in "$jdk17" "$jdk25"; do
      v=$("$jdk/bin/java" -version 2>&1 | awk -F'"' 'NR == 1 { split($2, a, "."); print a[1] }')
      drop "$size"
      JAVA_HOME=$jdk JOULE_AOT=use timed "joule-jdk$v-$size" ./joule sort -o "$dir/out-joule" "$in"
      cmp -s "$dir/out-gnu" "$dir/out-joule" || echo "# joule's output differs from GNU's: $in"
    done
  done
done
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
printf "| %-26s | %8s | %8s | %10s |\n" run "wall s" "CPU s" "wall / GNU"
for label in $(awk '{ print $1 }' "$log" | awk '!seen[$0]++'); do
  w=$(awk -v l="$label" '$1 == l { print $2 }' "$log" | median)
  c=$(awk -v l="$label" '$1 == l { print $3 + $4 }' "$log" | median)
  size=${label##*-}
  ratio=""
  if [[ $label == joule-* ]]; then
    g=$(awk -v l="gnu-$size" '$1 == l { print $2 }' "$log" | median)
    ratio=$(awk -v a="$w" -v b="$g" 'BEGIN { if (b > 0) printf "%.2fx", a / b }')
  fi
  printf "| %-26s | %8s | %8s | %10s |\n" "$label" "$w" "$c" "$ratio"
done
