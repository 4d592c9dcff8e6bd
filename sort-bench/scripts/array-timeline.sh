#!/usr/bin/env bash
# One sort over a simulated disk array with its --report-html page and a screenshot of it: the
# picture of issue 15 ("see the sort").
#
#   sort-bench/scripts/array-timeline.sh [--records N] [--memory SIZE] [--disks N] [--bps B/s]
#       [--interval TIME] [--out DIR] [--png FILE]
#
# Needs root and DISK_ARRAY=path of the disk-array tool, like stripe-bench.sh.
# Defaults: 4*10^7 binary gensort records (4 GB), -S 1G, 4 disks of 80 MiB/s of 3 GB each,
# --timeline-interval 1s; input and output in the array's directory (unthrottled), the page, the
# JSON report and --stats in --out (default bench-out/array-timeline), the screenshot (headless
# chromium, 1400 px wide) in --png if given.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
records=40000000 memory=1G disks=4 bps=83886080 interval=1s out="$repo/bench-out/array-timeline"
png="" array=/tmp/bench-disk-array
while [ $# -gt 0 ]; do
  case $1 in
    --records) records=$2; shift 2 ;;
    --memory) memory=$2; shift 2 ;;
    --disks) disks=$2; shift 2 ;;
    --bps) bps=$2; shift 2 ;;
    --interval) interval=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --png) png=$2; shift 2 ;;
    *) sed -n '2,12p' "$0" >&2; exit 2 ;;
  esac
done
[ "$(id -u)" = 0 ] || { echo "array-timeline: needs root" >&2; exit 2; }
tool=${DISK_ARRAY:-}
[ -n "$tool" ] && [ -x "$tool" ] || { echo "array-timeline: set DISK_ARRAY to the disk-array tool (got '$tool')" >&2; exit 2; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
export N=$disks SIZE=${SIZE:-3G} BPS=$bps DIR=$array
# Input and output beside the mounts, in the array's directory on the unthrottled disk, and named
# relative to it, so that the page shows "in", "d0", ... rather than this machine's paths.
trap 'rm -f "$array/in" "$array/out"; "$tool" down >/dev/null 2>&1 || true' EXIT INT TERM
"$tool" up
cd "$array"
"$repo/joule" gensort "$records" in >/dev/null
temps=()
for i in $(seq 0 $((disks - 1))); do temps+=(-T "d$i"); done
sync; echo 3 >/proc/sys/vm/drop_caches
"$tool" run "$repo/joule" sort --gensort -S "$memory" "${temps[@]}" --timeline-interval "$interval" \
  --stats --report-json "$out/report.json" --report-html "$out/report.html" -o out in \
  2> >(tee "$out/stats.txt" >&2)
"$repo/joule" valsort out >/dev/null 2>&1 || { echo "array-timeline: valsort failed" >&2; exit 1; }
echo "page: $out/report.html"
if [ -n "$png" ]; then
  browser=$(command -v chromium || command -v chromium-browser || true)
  [ -n "$browser" ] || { echo "array-timeline: no chromium for the screenshot" >&2; exit 1; }
  "$browser" --headless --disable-gpu --no-sandbox --hide-scrollbars --window-size=1400,1100 \
    --screenshot="$png" "file://$out/report.html" >/dev/null 2>&1
  echo "screenshot: $png"
fi
