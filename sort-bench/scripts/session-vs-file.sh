#!/usr/bin/env bash
# The same records through both doors of the engine (issue 27; sort-bench/README.md, "The
# embedding session"): ExternalSorter.sort of a gensort file against a record session fed by 4 MiB
# reads of it whose cursor is written to a file (SessionSort). Separate JVMs with the launcher's
# flags, rounds alternating, the page cache dropped before each run, outputs compared byte for byte
# (with each other and, once, with `joule valsort`).
#
#   sort-bench/scripts/session-vs-file.sh [--records N] [--memory SIZE] [--rounds R] [--dir DIR]
#       [--jar NAME=BENCHMARKS_JAR ...] [--floor]
#
# Defaults: 10^7 records (1 GB), -S 256M, 3 rounds, DIR bench-out/session-vs-file. --jar adds the
# two doors of another build (its sort-bench/target/benchmarks.jar) as NAME-file and NAME-session,
# for A/B runs. --floor adds new-copy: the session's caller without the sort (the same 4 MiB reads
# of IN, then as many bytes written and forced), the part of the session's time no engine behind
# it can hide. Needs a built repository, root for drop_caches, GNU time.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
records=10000000 memory=256M rounds=3 floor=0 dir="$repo/bench-out/session-vs-file"
jars=("new=$repo/sort-bench/target/benchmarks.jar")
while [ $# -gt 0 ]; do
  case $1 in
    --records) records=$2; shift 2 ;;
    --memory) memory=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    --jar) jars+=("$2"); shift 2 ;;
    --floor) floor=1; shift ;;
    *) sed -n '8,16p' "$0" >&2; exit 2 ;;
  esac
done
mkdir -p "$dir/tmp"
[ -f "$dir/in.dat" ] && [ "$(stat -c %s "$dir/in.dat")" = "$((records * 100))" ] ||
  "$repo/joule" gensort "$records" "$dir/in.dat"
mem_kb=$(awk '/^MemTotal:/ {print $2; exit}' /proc/meminfo)
drop() { if [ "$(id -u)" = 0 ]; then sync; echo 3 > /proc/sys/vm/drop_caches; fi; }
variants=()
for j in "${jars[@]}"; do
  variants+=("${j%%=*}-file=${j#*=}" "${j%%=*}-session=${j#*=}")
done
[ "$floor" = 0 ] || variants+=("new-copy=${jars[0]#*=}")
log=$(mktemp)
trap 'rm -f "$log" "$dir"/out-*.dat; rm -rf "$dir/tmp"' EXIT
n=${#variants[@]}
first_out=""
for ((r = 0; r < rounds; r++)); do
  for ((k = 0; k < n; k++)); do
    v=${variants[$(((k + r) % n))]}
    name=${v%%=*} jar=${v#*=} mode=${name##*-}
    rm -rf "$dir/tmp"; mkdir -p "$dir/tmp"
    drop
    line=$( { /usr/bin/time -f 'TIME %e %U %S' java -XX:+UseParallelGC -Xms32m \
      "-XX:MaxDirectMemorySize=${mem_kb}k" -cp "$jar" dev.joule.bench.pipeline.SessionSort \
      "$mode" "$dir/in.dat" "$dir/out-$name.dat" "$memory" 2 "$dir/tmp"; } 2>&1 | tr '\n' ' ')
    echo "round $r $name $line load=$(cut -d' ' -f1 /proc/loadavg)" | tee -a "$log"
    if [ "$mode" = copy ]; then
      rm -f "$dir/out-$name.dat"
      continue
    elif [ -z "$first_out" ]; then
      first_out=$dir/out-$name.dat
      "$repo/joule" valsort "$first_out" >/dev/null
    elif ! cmp -s "$first_out" "$dir/out-$name.dat"; then
      echo "output of $name differs from $first_out" >&2
      exit 1
    fi
    [ "$dir/out-$name.dat" = "$first_out" ] || rm -f "$dir/out-$name.dat"
  done
done
awk '
  function median(s,   a, m, i, j, x) {
    m = split(s, a, " ")
    for (i = 2; i <= m; i++) { x = a[i] + 0; for (j = i - 1; j >= 1 && a[j] + 0 > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
    return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
  }
  {
    name = $3
    for (i = 4; i <= NF; i++) {
      if ($i ~ /^seconds=/) { split($i, kv, "="); sec[name] = sec[name] " " kv[2] }
      if ($i == "TIME") { wall[name] = wall[name] " " $(i + 1); cpu[name] = cpu[name] " " ($(i + 2) + $(i + 3)) }
    }
    if (!(name in seen)) { seen[name] = 1; order[++count] = name }
  }
  END {
    printf "%-16s %9s %9s %9s\n", "variant", "seconds", "wall", "cpu"
    for (c = 1; c <= count; c++) {
      n = order[c]
      printf "%-16s %9.2f %9.2f %9.2f\n", n, median(sec[n]), median(wall[n]), median(cpu[n])
    }
  }' "$log"
