#!/usr/bin/env bash
# The Spark race: ./joule-spark sort with joule's engine against Spark's own sort of each partition
# (--engine spark), same input, same splitters, same partitions, in one run.
#
#   sort-bench/scripts/race-spark-engines.sh [--records N] [--partitions P] [--master URL]
#                                            [--skew] [--repeat R] [--dir DIR] [--drop-caches]
#
# Defaults: 3000000 binary gensort records, 8 partitions, local[2], 3 runs of each engine.
# DIR (default bench-out/ in the repository) receives a private work directory, removed at the end.
#
# Steps: generate the input with ./joule gensort; run both engines R times, alternating which goes
# first; after every run check the parts with `joule valsort -s` over their summaries and check that
# both engines wrote byte-identical parts; print wall time and CPU-seconds (user + sys of the whole
# process, /usr/bin/time) of every run, the job's own time once Spark runs (planning, sampling,
# map, shuffle, sort and commit, without the JVM and SparkContext start and stop), and the medians
# with their ratios. The input and
# Spark's jars stay in the page cache between runs unless --drop-caches (root only).
set -euo pipefail

records=3000000 partitions=8 master='local[2]' repeat=3 skew="" dir="" drop=0
while [ $# -gt 0 ]; do
  case "$1" in
    --records) records=$2; shift 2 ;;
    --partitions) partitions=$2; shift 2 ;;
    --master) master=$2; shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
    --skew) skew="-s"; shift ;;
    --dir) dir=$2; shift 2 ;;
    --drop-caches) drop=1; shift ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    *) echo "race-spark-engines: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done

root=$(cd "$(dirname "$0")/../.." && pwd)
for tool in joule joule-spark; do
  [ -x "$root/$tool" ] || { echo "race-spark-engines: $root/$tool missing" >&2; exit 2; }
done
parent=${dir:-$root/bench-out}
mkdir -p "$parent"
dir=$(mktemp -d "$parent/spark-race.XXXXXX")
trap 'rm -rf "$dir"' EXIT
if [ "$drop" = 1 ] && [ "$(id -u)" != 0 ]; then
  echo "note: not root, so the page cache is not dropped between runs"
  drop=0
fi
drop_caches() { if [ "$drop" = 1 ]; then sync; echo 3 > /proc/sys/vm/drop_caches; fi; }

echo "== $records binary${skew:+ skewed} gensort records ($((records / 10000)) MB), $partitions partitions, master $master, $repeat runs each, in $dir"
"$root/joule" gensort $skew -t2 "$records" "$dir/in.dat"

# run ENGINE: one sort; appends "wall cpu job" to $dir/ENGINE.times and validates the parts
run() {
  local engine=$1 out="$dir/out-$1"
  rm -rf "$out"
  drop_caches
  /usr/bin/time -o "$dir/time.tmp" -f '%e %U %S' \
    "$root/joule-spark" sort --master "$master" --partitions "$partitions" --engine "$engine" \
    "$dir/in.dat" "$out" 2> "$dir/$engine.log"
  # the job's own time (plan + sample + sort + validate/commit), from its report line
  job=$(sed -n 's/.*time: plan \([0-9.]*\) s, sample \([0-9.]*\) s.*, sort \([0-9.]*\) s, validate+commit \([0-9.]*\) s.*/\1 \2 \3 \4/p' \
    "$dir/$engine.log" | awk '{printf "%.2f", $1 + $2 + $3 + $4}')
  awk -v job="$job" '{printf "%s %.2f %s\n", $1, $2 + $3, job}' "$dir/time.tmp" >> "$dir/$engine.times"
  cat "$out"/part-*.sum > "$dir/all.sum"
  if ! "$root/joule" valsort -q -s "$dir/all.sum"; then
    echo "FAIL: valsort -s rejects the $engine engine's parts" >&2
    cat "$dir/$engine.log" >&2
    exit 1
  fi
  # the map and reduce stages' wall times and the reduce tasks' hsync time, from the report
  stages=$(awk '/stage sort\/map:/ {m=$6} /stage sort\/reduce:/ {r=$6} /parts: largest/ {h=$(NF)} END {printf "map %5.2f s, reduce %5.2f s, hsync %5.2f task-s", m, r, h}' "$dir/$engine.log")
  load=$(cut -d' ' -f1 /proc/loadavg)
  tail -1 "$dir/time.tmp" | awk -v e="$engine" -v job="$job" -v st="$stages" -v l="$load" '{printf "  %-6s wall %6.2f s  CPU %6.2f s  job %6.2f s  (%s; load %s)\n", e, $1, $2 + $3, job, st, l}'
}
for i in $(seq 1 "$repeat"); do
  echo "run $i"
  if [ $((i % 2)) = 1 ]; then run joule; run spark; else run spark; run joule; fi
  if ! cmp -s <(cat "$dir"/out-joule/part-?????) <(cat "$dir"/out-spark/part-?????); then
    echo "FAIL: the engines' parts differ (run $i)" >&2
    exit 1
  fi
done

echo "-- the last runs' own reports"
grep -h -E 'time:|stage' "$dir/joule.log" "$dir/spark.log" | sed 's/^joule-spark: /  /'

median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
jw=$(awk '{print $1}' "$dir/joule.times" | median); sw=$(awk '{print $1}' "$dir/spark.times" | median)
jc=$(awk '{print $2}' "$dir/joule.times" | median); sc=$(awk '{print $2}' "$dir/spark.times" | median)
jj=$(awk '{print $3}' "$dir/joule.times" | median); sj=$(awk '{print $3}' "$dir/spark.times" | median)
echo "-- medians of $repeat ($records records, $partitions partitions, $master)"
printf "  %-18s %10s %10s %8s\n" "" "joule" "spark" "ratio"
printf "  %-18s %10.2f %10.2f %7.2fx\n" "wall s" "$jw" "$sw" "$(awk -v a="$sw" -v b="$jw" 'BEGIN{print a/b}')"
printf "  %-18s %10.2f %10.2f %7.2fx\n" "CPU s" "$jc" "$sc" "$(awk -v a="$sc" -v b="$jc" 'BEGIN{print a/b}')"
printf "  %-18s %10.2f %10.2f %7.2fx\n" "job s (in Spark)" "$jj" "$sj" "$(awk -v a="$sj" -v b="$jj" 'BEGIN{print a/b}')"
