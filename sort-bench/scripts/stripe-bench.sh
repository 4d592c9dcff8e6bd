#!/usr/bin/env bash
# Striped temp I/O on a simulated disk array: the same gensort sort with its runs on 1 and on N
# throttled disks, in the same rounds, and the temp I/O bound of each.
#
#   sort-bench/scripts/stripe-bench.sh [--records N] [--memory SIZE] [--disks N] [--bps B/s]
#       [--stripes "1 4"] [--slow-bps B/s] [--repeat R] [--threads T] [--dir DIR]
#       [--array-dir DIR] [--keep]
#
# Needs root (loop mounts, cgroup v1 blkio, drop_caches) and DISK_ARRAY=path of a disk-array tool
# (`up`, `run CMD`, `down` with N, SIZE, BPS, DIR in the environment). Defaults: 10^7 binary gensort records (1 GB), -S 256M,
# 4 disks of 80 MiB/s (83886080 B/s) of 3 GB each, stripe counts "1 4", 3 rounds, 2 threads.
# --slow-bps throttles the last disk to another speed (weighted striping); a stripe count written
# with a "u" suffix ("4u") runs with -Djoule.weightedStripes=false (plain round robin).
# The input and the output live in --dir (default: a fresh directory under the repository's parent,
# on the unthrottled disk); only the temp dirs are on the throttled array, and only the joule
# process is in the throttled group, so what is measured is the temp I/O.
#
# Every run: caches dropped, `joule sort --gensort -S MEM --parallel T -T d0 ... -T d(s-1)
# --report-json`; its output must be byte-identical to the first run's, which valsort checks once.
# Prints every run, then per stripe count the medians of wall time, run formation and final merge
# (seconds and MB/s of temp bytes written or read), CPU-seconds, the speed-up over the first stripe
# count, and the temp I/O bound: the run bytes written once and read once at s disks' throttle.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
records=10000000 memory=256M disks=4 bps=83886080 stripes="1 4" repeat=3 threads=2 keep=0 slow=""
dir="" array="/tmp/bench-disk-array"
while [ $# -gt 0 ]; do
  case $1 in
    --records) records=$2; shift 2 ;;
    --memory) memory=$2; shift 2 ;;
    --disks) disks=$2; shift 2 ;;
    --bps) bps=$2; shift 2 ;;
    --stripes) stripes=$2; shift 2 ;;
    --slow-bps) slow=$2; shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    --array-dir) array=$2; shift 2 ;;
    --keep) keep=1; shift ;;
    *) sed -n '2,19p' "$0" >&2; exit 2 ;;
  esac
done
[ "$(id -u)" = 0 ] || { echo "stripe-bench: needs root (loop mounts, blkio throttle)" >&2; exit 2; }
tool=${DISK_ARRAY:-}
[ -n "$tool" ] && [ -x "$tool" ] || { echo "stripe-bench: set DISK_ARRAY to the disk-array tool (got '$tool')" >&2; exit 2; }
joule="$repo/joule"
# Train the launcher's start-up cache now: on a new build its first run would train one in the
# background, beside the next runs being timed (8 s more for one of them on a 2-vCPU VM).
JOULE_AOT=train "$joule" --version >/dev/null 2>&1 || true
[ -f "$repo/sort-cli/target/joule.jar" ] || { echo "build first: mvn -B -DskipTests package" >&2; exit 2; }
[ -n "$dir" ] || dir=$(mktemp -d "$repo/../stripe-bench.XXXXXX")
mkdir -p "$dir"
export N=$disks SIZE=${SIZE:-3G} BPS=$bps DIR=$array
cleanup() {
  "$tool" down >/dev/null 2>&1 || true
  [ "$keep" = 1 ] || rm -rf "$dir"
}
trap cleanup EXIT INT TERM
"$tool" up
if [ -n "$slow" ]; then
  # The last disk gets its own throttle (the tool gives them all the same).
  cg=/sys/fs/cgroup/blkio/disk-array
  mm=$(lsblk -no MAJ:MIN "$(findmnt -n -o SOURCE "$array/d$((disks - 1))")" | tr -d ' ')
  echo "$mm $slow" >"$cg/blkio.throttle.read_bps_device"
  echo "$mm $slow" >"$cg/blkio.throttle.write_bps_device"
  echo "disk d$((disks - 1)) throttled to $slow B/s"
fi
in="$dir/in" out="$dir/out" first="$dir/first"
"$joule" gensort "$records" "$in" >/dev/null
bytes=$(stat -c %s "$in")
echo "input: $records gensort records, $bytes bytes; -S $memory, $threads threads; $disks disks of $bps B/s"
echo "uptime before: $(uptime)"
results="$dir/results.txt"
: >"$results"
for round in $(seq 1 "$repeat"); do
  order=$stripes
  [ $((round % 2)) = 0 ] && order=$(echo "$stripes" | tr ' ' '\n' | tac | tr '\n' ' ')
  for config in $order; do
    s=${config%u}
    opts=""
    [ "$s" != "$config" ] && opts="-Djoule.weightedStripes=false"
    temps=()
    for i in $(seq 0 $((s - 1))); do
      rm -rf "$array/d$i"/joule-* 2>/dev/null || true
      temps+=(-T "$array/d$i")
    done
    rm -f "$out"
    sync; echo 3 >/proc/sys/vm/drop_caches
    JOULE_JAVA_OPTS="$opts" /usr/bin/time -f '%e %U %S' -o "$dir/time" "$tool" run "$joule" sort --gensort -S "$memory" \
      --parallel "$threads" "${temps[@]}" --report-json "$dir/report.json" -o "$out" "$in"
    if [ -f "$first" ]; then
      cmp "$first" "$out" || { echo "stripe-bench: output with $s stripes differs" >&2; exit 1; }
    else
      "$joule" valsort "$out" >/dev/null 2>&1 || { echo "stripe-bench: valsort failed" >&2; exit 1; }
      mv "$out" "$first"
    fi
    python3 - "$dir/report.json" "$dir/time" "$config" "$round" >>"$results" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
wall, user, sys_ = (float(x) for x in open(sys.argv[2]).read().split()[-3:])
ph = r["phases"]
rf = next(p for p in ph if p["name"] == "run formation")
fm = [p for p in ph if "final" in p["name"]][0]
dev = "/".join(f'{d["bytesWritten"] / 1e6:.0f}@{d["writeMegabytesPerSecond"]:.0f}' for d in r.get("devices", []))
print(sys.argv[3], sys.argv[4], wall, user + sys_, rf["wallSeconds"], rf["bytesWritten"],
      fm["wallSeconds"], fm["bytesRead"], len(ph) - 1, dev)
EOF
    tail -1 "$results" | awk '{printf "round %s, %s stripe(s): wall %.2f s, CPU %.2f s, run formation %.2f s, final merge %.2f s, merge passes %s; per temp dir MB written@busy MB/s %s\n", $2, $1, $3, $4, $5, $7, $9, $10}'
  done
done
echo "uptime after: $(uptime)"
python3 - "$results" "$bps" "$stripes" "$disks" "${slow:-$bps}" <<'EOF'
import statistics as st, sys
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
bps = float(sys.argv[2]); counts = sys.argv[3].split(); disks = int(sys.argv[4]); slow = float(sys.argv[5])
def med(s, i): return st.median(float(r[i]) for r in rows if r[0] == s)
print()
print("| stripes | wall s | speed-up | run formation s (MB/s written) | final merge s (MB/s read) | CPU s | temp I/O bound s | wall / bound |")
print("|---:|---:|---:|---:|---:|---:|---:|---:|")
base = med(counts[0], 2)
for s in counts:
    n = int(s.rstrip("u")); wall = med(s, 2); rf = med(s, 4); rfb = med(s, 5); fm = med(s, 6); fmb = med(s, 7)
    # The array's bound: all n disks busy, the last one at its own speed when it is among them.
    rate = sum(slow if i == disks - 1 else bps for i in range(n))
    bound = (rfb + fmb) / rate
    print(f"| {s} | {wall:.2f} | {base / wall:.2f}x | {rf:.2f} ({rfb / rf / 1e6:.0f}) | {fm:.2f} ({fmb / fm / 1e6:.0f}) | {med(s, 3):.2f} | {bound:.2f} | {wall / bound:.2f} |")
print(f"\nthrottle: {bps / 1e6:.1f} MB/s per disk" + (f", the last {slow / 1e6:.1f} MB/s" if slow != bps else "")
      + f"; medians of {len(rows) // len(counts)} rounds; \"u\": round robin, not weighted")
EOF
