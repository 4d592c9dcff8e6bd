#!/usr/bin/env bash
# Start-up A/B: the same `joule sort -o OUT IN` through two (or more) joule launchers, e.g. this
# tree's and a checkout of an earlier commit, alternating, on the 1 KB and 10 MB inputs of
# startup-vs-gnu.sh (gen-text.py's words), page cache dropped before each 10 MB run (as root).
# Each launcher's start-up cache is trained first. Prints, per launcher and input, the median wall
# seconds and user + sys CPU-seconds of RUNS runs and the ratios against the first launcher.
#
#   JAVA_HOME=<jdk> sort-bench/scripts/startup-ab.sh [-n RUNS] [-d DIR] NAME=LAUNCHER ...
#   e.g. sort-bench/scripts/startup-ab.sh -n 9 base=/tmp/old/joule now=./joule
#
# Run it under the exclusive CPU lock: `flock -x /tmp/joule-cpu.lock sort-bench/scripts/...`.
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=7 dir=${TMPDIR:-/tmp}/joule-startup
while [ $# -gt 0 ]; do
  case $1 in
    -n) runs=$2; shift 2 ;;
    -d) dir=$2; shift 2 ;;
    *=*) break ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
[ $# -ge 1 ] || { echo "usage: $0 [-n RUNS] [-d DIR] NAME=LAUNCHER ..." >&2; exit 2; }
mkdir -p "$dir"
export LC_ALL=C
for size in 1000 10000000; do
  f=$dir/in-$size.txt
  [ -f "$f" ] || python3 sort-bench/scripts/gen-text.py words "$size" "$f" --seed 30
done
names=() launchers=()
for spec in "$@"; do
  names+=("${spec%%=*}")
  launchers+=("${spec#*=}")
  JOULE_AOT=train "${spec#*=}" sort -o "$dir/out-train" "$dir/in-1000.txt"
done
log=$dir/ab.log
: >"$log"
echo "# $(date -u +%FT%TZ) $(nproc) CPUs; $("${JAVA_HOME:-/usr}/bin/java" -version 2>&1 | head -1)"
echo "# load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for ((i = 0; i < runs; i++)); do
  for size in 1000 10000000; do
    for k in "${!names[@]}"; do
      [ "$size" -lt 10000000 ] || { sync; echo 3 >/proc/sys/vm/drop_caches; } 2>/dev/null || true
      /usr/bin/time -f "${names[$k]} $size %e %U %S" -a -o "$log" \
        "${launchers[$k]}" sort -o "$dir/out-${names[$k]}" "$dir/in-$size.txt"
    done
    cmp -s "$dir/out-${names[0]}" "$dir/out-${names[-1]}" || { echo "outputs differ" >&2; exit 1; }
  done
done
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$log" "${names[@]}" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    name, size, wall, user, sys_ = line.split()
    rows.setdefault((name, size), []).append((float(wall), float(user) + float(sys_)))
names = sys.argv[2:]
print("| input | " + " | ".join(f"{n} wall / CPU-s" for n in names) + " |")
print("|---|" + "---:|" * len(names))
for size, label in (("1000", "1 KB"), ("10000000", "10 MB")):
    cells, base = [], None
    for n in names:
        r = rows[(n, size)]
        w, c = statistics.median(x[0] for x in r), statistics.median(x[1] for x in r)
        base = base or (w, c)
        cells.append(f"{w:.2f} / {c:.2f}" + ("" if n == names[0] else f" ({w / base[0]:.2f}×, {c / base[1]:.2f}×)"))
    print(f"| {label} | " + " | ".join(cells) + " |")
PY
