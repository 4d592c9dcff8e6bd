#!/usr/bin/env bash
# Everyday sorts against GNU sort, start-up included: `./joule sort` on JDK 17 and on JDK 25 (each
# with its start-up cache: AppCDS on 17, the AOT cache on 25, trained first) against `LC_ALL=C
# sort`, for inputs of 1 KB, 10 MB and 150 MB of text lines (gen-text.py's words), two ways: a file
# to a file (`sort -o OUT IN`) and a pipe to standard output (`cat IN | sort > OUT`). Medians of N
# runs, the tools alternating (their order rotates every round). The 10 MB and larger inputs run
# with the page cache dropped before each run (as root); a 1 KB run follows an untimed run of the
# same command instead, so that it measures start-up, not the disk: dropped caches would make every
# tool read its own binary, and joule its start-up cache, from the disk (20-30 ms of a JDK 17
# run's 0.13 s, 2026-12-07). Also the JVM's floors: `java -version`, an empty main with the
# launcher's flags, and jvm-floor/MinSort.java on every input and way (the least a JVM program can
# do to sort the lines: read, sort an index, write; cold, with the JDK's default CDS archive).
#
#   sort-bench/scripts/startup-vs-gnu.sh [-n RUNS] [-d DIR] [--jdk17 PATH] [--jdk25 PATH]
#                                        [--sizes "1000 10000000 150000000"] [--ways "file pipe"]
#
# Every run is timed by /usr/bin/time (wall, user + sys CPU-seconds; a pipe's include `cat` and
# the shell, for every tool alike). Run it under the exclusive CPU lock on a quiet machine: `flock
# -x /tmp/joule-cpu.lock sort-bench/scripts/startup-vs-gnu.sh`.
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=5 dir=${TMPDIR:-/tmp}/joule-startup jdk17=/usr/lib/jvm/java-17-openjdk-amd64
jdk25=/usr/lib/jvm/temurin-25-jdk-amd64 sizes="1000 10000000 150000000" ways="file pipe"
while [ $# -gt 0 ]; do
  case $1 in
    -n) runs=$2; shift 2 ;;
    -d) dir=$2; shift 2 ;;
    --jdk17) jdk17=$2; shift 2 ;;
    --jdk25) jdk25=$2; shift 2 ;;
    --sizes) sizes=$2; shift 2 ;;
    --ways) ways=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
mkdir -p "$dir"
log=$dir/times.log
: >"$log"
export LC_ALL=C
# inputs: random words (made once)
for size in $sizes; do
  f=$dir/in-$size.txt
  [ -f "$f" ] || python3 sort-bench/scripts/gen-text.py words "$size" "$f" --seed 30
  sort -o "$dir/expected-$size" "$f"
done
for jdk in "$jdk17" "$jdk25"; do
  JAVA_HOME=$jdk JOULE_AOT=train ./joule --version >/dev/null
done
floors=$dir/floors
mkdir -p "$floors"
printf 'public class Empty { public static void main(String[] a) {} }\n' >"$floors/Empty.java"
"$jdk17/bin/javac" --release 17 -d "$floors" "$floors/Empty.java" \
  sort-bench/scripts/jvm-floor/MinSort.java
feature() { "$1/bin/java" -version 2>&1 | awk -F'"' 'NR == 1 { split($2, a, "."); print a[1] }'; }
v17=$(feature "$jdk17") v25=$(feature "$jdk25")
drop() { { sync; echo 3 >/proc/sys/vm/drop_caches; } 2>/dev/null || true; }
timed() { # label, command...
  local label=$1
  shift
  /usr/bin/time -f "$label %e %U %S" -a -o "$log" "$@" >/dev/null 2>&1
}
# tool way in out: the command that sorts IN into OUT
command_for() {
  local tool=$1 way=$2 in=$3 out=$4 run
  case $tool in
    gnu) run=(sort) ;;
    minsort-jdk$v17) run=("$jdk17/bin/java" -Xshare:auto -XX:+UseParallelGC -cp "$floors" MinSort) ;;
    minsort-jdk$v25) run=("$jdk25/bin/java" -Xshare:auto -XX:+UseParallelGC -cp "$floors" MinSort) ;;
    joule-jdk$v17) run=(env JAVA_HOME="$jdk17" JOULE_AOT=use ./joule sort) ;;
    joule-jdk$v25) run=(env JAVA_HOME="$jdk25" JOULE_AOT=use ./joule sort) ;;
  esac
  if [ "$way" = pipe ]; then
    printf '%q ' bash -c 'cat "$1" | "${@:3}" > "$2"' _ "$in" "$out" "${run[@]}"
  elif [[ $tool == minsort-* ]]; then
    printf '%q ' "${run[@]}" "$in" "$out"
  else
    printf '%q ' "${run[@]}" -o "$out" "$in"
  fi
}
tools=(gnu "minsort-jdk$v17" "minsort-jdk$v25" "joule-jdk$v17" "joule-jdk$v25")
echo "# $(date -u +%FT%TZ) $(nproc) CPUs; GNU $(sort --version | head -1); JDKs $v17 and $v25"
echo "# load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for ((i = 0; i < runs; i++)); do
  for jdk in "$jdk17" "$jdk25"; do
    v=$(feature "$jdk")
    timed "floor-version-jdk$v" "$jdk/bin/java" -Xshare:auto -XX:+UseParallelGC -Xms32m -version
    timed "floor-empty-main-jdk$v" "$jdk/bin/java" -Xshare:auto -XX:+UseParallelGC -Xms32m \
      -cp "$floors" Empty
  done
  for size in $sizes; do
    in=$dir/in-$size.txt
    for way in $ways; do
      for ((t = 0; t < ${#tools[@]}; t++)); do
        tool=${tools[(t + i) % ${#tools[@]}]}
        out=$dir/out-$tool
        cmd=$(command_for "$tool" "$way" "$in" "$out")
        if [ "$size" -ge 10000000 ]; then
          drop
        else
          eval "$cmd" >/dev/null 2>&1 || true
        fi
        eval timed "$tool-$way-$size" "$cmd"
        cmp -s "$dir/expected-$size" "$out" || echo "# $tool's output differs from GNU's: $way $in"
      done
    done
  done
done
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
printf "| %-26s | %8s | %8s | %10s |\n" run "wall s" "CPU s" "wall / GNU"
for label in $(awk '{ print $1 }' "$log" | awk '!seen[$0]++'); do
  w=$(awk -v l="$label" '$1 == l { print $2 }' "$log" | median)
  c=$(awk -v l="$label" '$1 == l { print $3 + $4 }' "$log" | median)
  ratio=""
  if [[ $label == joule-* || $label == minsort-* ]]; then
    g=$(awk -v l="gnu-${label#*-jdk*-}" '$1 == l { print $2 }' "$log" | median)
    ratio=$(awk -v a="$w" -v b="$g" 'BEGIN { if (b > 0) printf "%.2fx", a / b }')
  fi
  printf "| %-26s | %8s | %8s | %10s |\n" "$label" "$w" "$c" "$ratio"
done
