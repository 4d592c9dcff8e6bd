#!/usr/bin/env bash
# Compressed temp runs on a slow temp disk: the same two-pass sort with --compress off, auto, lz4
# and zstd, its temp dir on one throttled disk (a simulated cloud volume), and the floor: off and
# auto with the temp dir on the unthrottled disk (temp I/O nearly free).
#
#   sort-bench/scripts/compress-bench.sh [--records N] [--memory SIZE] [--bps B/s] [--repeat R]
#       [--inputs "ascii csv binary"] [--modes "off auto lz4 zstd"] [--floor "off auto"] [--dir DIR]
#
# Needs root (loop mount, cgroup v1 blkio, drop_caches) and DISK_ARRAY=path of a disk-array tool
# (`up`, `run CMD`, `down` with N, SIZE, BPS, DIR in the environment). Defaults: 10^7 records
# (1 GB: ASCII gensort lines sorted as text, binary gensort records with --gensort; csv is
# gen-text.py's 6*10^6 lines `id,name,amount,date`, 246 MB, sorted -t, -k3,3n -k2,2r), -S 256M, one
# temp disk of 125 MiB/s (131072000 B/s), 3 rounds, the modes alternating within each round.
# Input and output live in --dir (default: a fresh directory beside the repository), on the
# unthrottled disk; only the joule process is in the throttled group.
#
# Every run: caches dropped; its output must equal the first run's of the same input. Prints each
# run (seconds, MB written to the temp device, from its block-layer counters, and the lines of
# joule's --stats about compression and the temp device), then per input and place the medians,
# and each mode's ratio to the floor's "off".
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
records=10000000 memory=256M bps=131072000 repeat=3 inputs="ascii csv binary"
modes="off auto lz4 zstd" floor="off auto" dir=""
while [ $# -gt 0 ]; do
  case $1 in
    --records) records=$2; shift 2 ;;
    --memory) memory=$2; shift 2 ;;
    --bps) bps=$2; shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
    --inputs) inputs=$2; shift 2 ;;
    --modes) modes=$2; shift 2 ;;
    --floor) floor=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    *) sed -n '2,18p' "$0" >&2; exit 2 ;;
  esac
done
[ "$(id -u)" = 0 ] || { echo "compress-bench: needs root" >&2; exit 2; }
tool=${DISK_ARRAY:-}
[ -n "$tool" ] && [ -x "$tool" ] || { echo "compress-bench: set DISK_ARRAY to the disk-array tool" >&2; exit 2; }
joule="$repo/joule"
[ -f "$repo/sort-cli/target/joule.jar" ] || { echo "build first: mvn -B -DskipTests package" >&2; exit 2; }
# Train the launcher's start-up cache now: on a new build its first run would train one in the
# background, beside the next runs being timed (8 s more for one of them on a 2-vCPU VM).
JOULE_AOT=train "$joule" --version >/dev/null 2>&1 || true
[ -n "$dir" ] || dir=$(mktemp -d "$repo/../compress-bench.XXXXXX")
mkdir -p "$dir/floor-tmp"
export N=1 SIZE=${SIZE:-4G} BPS=$bps DIR=${ARRAY_DIR:-/tmp/bench-compress-array}
trap '"$tool" down >/dev/null 2>&1 || true; rm -rf "$dir"' EXIT INT TERM
"$tool" up >/dev/null
disk="$DIR/d0"
dev=$(basename "$(findmnt -n -o SOURCE "$disk")")
written() { awk '{print $7 * 512}' "/sys/block/$dev/stat"; }

for input in $inputs; do
  case $input in
    ascii) "$joule" gensort -a "$records" "$dir/in-$input"; flags=() ;;
    csv) python3 "$here/gen-text.py" csv 6000000 "$dir/in-$input" ;;
    binary) "$joule" gensort "$records" "$dir/in-$input"; flags=(--gensort) ;;
    *) echo "compress-bench: unknown input $input" >&2; exit 2 ;;
  esac
done
results="$dir/results"
: > "$results"
for round in $(seq 1 "$repeat"); do
  for input in $inputs; do
    case $input in ascii) flags=() ;; csv) flags=(-t, -k3,3n -k2,2r) ;; binary) flags=(--gensort) ;; esac
    for place in throttled floor; do
      if [ $place = throttled ]; then list=$modes; tmp=$disk; run=("$tool" run); else list=$floor; tmp=$dir/floor-tmp; run=(); fi
      for mode in $list; do
        sync; echo 3 > /proc/sys/vm/drop_caches
        before=$(written)
        start=$(date +%s.%N)
        "${run[@]}" "$joule" sort "${flags[@]}" -S "$memory" -T "$tmp" --compress "$mode" \
          --stats -o "$dir/out" "$dir/in-$input" 2> "$dir/stats" || { cat "$dir/stats" >&2; exit 1; }
        end=$(date +%s.%N)
        after=$(written)
        secs=$(echo "$end $start" | awk '{printf "%.2f", $1 - $2}')
        mb=$(echo "$after $before" | awk '{printf "%.0f", ($1 - $2) / 1e6}')
        [ $place = floor ] && mb=-
        sum=$(cksum < "$dir/out" | cut -d' ' -f1)
        ref="$dir/sum-$input"
        [ -f "$ref" ] || echo "$sum" > "$ref"
        [ "$sum" = "$(cat "$ref")" ] || { echo "compress-bench: $input $mode: output differs" >&2; exit 1; }
        echo "$input $place $mode round $round: $secs s, temp written $mb MB, load $(cut -d' ' -f1 /proc/loadavg)" | tee -a "$results"
        grep -E '^(compression|temp) ' "$dir/stats" | sed 's/^/    /' || true
      done
    done
  done
done
echo "medians ($repeat rounds):"
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for input in $inputs; do
  base=$(grep "^$input floor off " "$results" | awk '{print $6}' | median)
  for place in throttled floor; do
    if [ $place = throttled ]; then list=$modes; else list=$floor; fi
    for mode in $list; do
      t=$(grep "^$input $place $mode " "$results" | awk '{print $6}' | median)
      m=$(grep "^$input $place $mode " "$results" | awk '{print $10}' | median)
      echo "$input $place $mode $t $base $m" |
        awk '{printf "  %-26s %7.2f s  %5.2fx floor-off  temp %s MB\n", $1 " " $2 " " $3, $4, $4 / $5, $6}'
    done
  done
done
