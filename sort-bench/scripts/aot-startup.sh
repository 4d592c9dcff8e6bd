#!/usr/bin/env bash
# The same `./joule` command without and with the launcher's JDK 25 ahead-of-time cache,
# alternating, in one run.
#
#   JAVA_HOME=/path/to/jdk-25 sort-bench/scripts/aot-startup.sh [-n RUNS] -- JOULE_ARGS...
#   e.g. JAVA_HOME=/path/to/jdk-25 sort-bench/scripts/aot-startup.sh -n 7 -- sort --gensort -o out.dat in.dat
#
# It trains the cache first (JOULE_AOT=train on `--version`; nothing if it exists), then alternates
# JOULE_AOT=off and JOULE_AOT=use. Every run is timed by /usr/bin/time
# (wall, user + sys CPU-seconds, minor page faults) and the script prints the median of each
# variant and the ratios, with the load average before and after. The command's output goes to
# /dev/null; give it files that may be overwritten. It does not drop the page cache (joule reads
# and writes with O_DIRECT by default).
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=5
while [ $# -gt 0 ] && [ "$1" != -- ]; do
  case $1 in
    -n) runs=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
[ "${1:-}" = -- ] && shift
[ $# -gt 0 ] || { echo "no joule arguments" >&2; exit 2; }
var=JOULE_AOT off=off on=use
JOULE_AOT=train ./joule --version >/dev/null
log=$(mktemp)
trap 'rm -f "$log"' EXIT
echo "# $(date -u +%FT%TZ) $(java_home=${JAVA_HOME:-}; "${java_home:+$java_home/bin/}java" -version 2>&1 | head -1)"
echo "# ./joule $*   ($var=$off against $var=$on, $runs runs each, alternating)"
echo "# load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for ((i = 0; i < runs; i++)); do
  for v in "$off" "$on"; do
    env "$var=$v" /usr/bin/time -f "$v %e %U %S %R" -a -o "$log" ./joule "$@" >/dev/null 2>&1
  done
done
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
printf "| %-22s | %8s | %8s | %10s |\n" variant "wall s" "CPU s" "minor faults"
for v in "$off" "$on"; do
  w=$(awk -v v="$v" '$1 == v { print $2 }' "$log" | median)
  c=$(awk -v v="$v" '$1 == v { print $3 + $4 }' "$log" | median)
  f=$(awk -v v="$v" '$1 == v { print $5 }' "$log" | median)
  printf "| %-22s | %8s | %8s | %10s |\n" "$var=$v" "$w" "$c" "$f"
  eval "w_$v=$w c_$v=$c"
done
awk -v a="$(eval echo "\$w_$off")" -v b="$(eval echo "\$w_$on")" -v c="$(eval echo "\$c_$off")" \
  -v d="$(eval echo "\$c_$on")" \
  'BEGIN { printf "saved by %s: wall %.3f s (%.2fx), CPU %.3f s (%.2fx)\n", "'"$var=$on"'", a - b, a / b, c - d, c / d }'
