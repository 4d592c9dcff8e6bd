#!/usr/bin/env bash
# Race in a locale (issue 31): joule sort against GNU sort on UTF-8 text lines, both with the same
# LC_ALL, -S and --parallel, outputs checked byte for byte.
#
#   sort-bench/scripts/locale-race.sh [--lines N] [--input FILE] [--locale L] [--memory SIZE]
#       [--threads T] [--repeat R] [--cases LIST] [--dir DIR] [--lock FILE] [--no-drop-caches]
#
# Input: --lines N lines (default 2.5e7, about 1 GB) of `gen-text.py intl` (names and words with
# accents, mixed case; seeded), made once in DIR, or --input FILE.
# Locale: --locale (default en_US.UTF-8), built with localedef into $LOCPATH (default
# ~/.cache/joule/test-locales, the tests' cache) if it is not there.
# Cases (--cases, comma-separated; default whole,key): whole = the whole line, key = `-k2,2` (the
# last name, then GNU's last resort).
# Each of R rounds runs every case with GNU sort and then joule (the order alternating from round to
# round), the page cache dropped before each run when root, each run under `flock -x FILE` with
# --lock (so that a shared machine is quiet while it is timed, and free between runs):
#   GNU:   LC_ALL=L sort OPTS -S MEM --parallel=T -T DIR -o OUT IN
#   joule: LC_ALL=L joule sort OPTS -S MEM --parallel=T -T DIR -o OUT IN
# then `cmp` of the outputs. Prints every run (wall, user+sys CPU-seconds, peak RSS) and per case
# the medians and GNU wall / joule wall, with `uptime` before and after.
set -euo pipefail

lines=25000000 input="" locale=en_US.UTF-8 memory=2G threads=2 repeat=3 cases=whole,key
dir="" lock="" drop=1
while [ $# -gt 0 ]; do
  case "$1" in
    --lines) lines=$2; shift 2 ;;
    --input) input=$2; shift 2 ;;
    --locale) locale=$2; shift 2 ;;
    --memory) memory=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
    --cases) cases=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    --lock) lock=$2; shift 2 ;;
    --no-drop-caches) drop=0; shift ;;
    *) echo "locale-race.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
root=$(cd "$(dirname "$0")/../.." && pwd)
joule=${JOULE:-$root/joule}
# Train the launcher's start-up cache now: on a new build its first run would train one in the
# background, beside the next runs being timed (8 s more for one of them on a 2-vCPU VM).
JOULE_AOT=train "$joule" --version >/dev/null 2>&1 || true
dir=${dir:-$root/bench-out/locale-race}
mkdir -p "$dir"
export LOCPATH=${LOCPATH:-$HOME/.cache/joule/test-locales}
if [ ! -f "$LOCPATH/$locale/LC_COLLATE" ]; then
  mkdir -p "$LOCPATH"
  localedef -i "${locale%%.*}" -f UTF-8 "$LOCPATH/$locale" || [ -f "$LOCPATH/$locale/LC_COLLATE" ]
fi
if [ -z "$input" ]; then
  input=$dir/intl-$lines.txt
  [ -f "$input" ] || python3 "$root/sort-bench/scripts/gen-text.py" intl "$lines" "$input"
fi
tmp=$dir/tmp
mkdir -p "$tmp"
echo "input $input: $(stat -c %s "$input") bytes, $(wc -l < "$input") lines; LC_ALL=$locale" \
  "LOCPATH=$LOCPATH -S $memory --parallel=$threads; $("$joule" --version 2>/dev/null | head -1)"
echo "before: $(uptime)"

run() { # tool case -> prints "wall cpu rss"
  local tool=$1 name=$2 opts=()
  [ "$name" = key ] && opts=(-k2,2)
  local out=$dir/$tool-$name.out
  local cmd=(env LC_ALL="$locale" sort)
  [ "$tool" = joule ] && cmd=(env LC_ALL="$locale" "$joule" sort)
  cmd+=("${opts[@]}" -S "$memory" --parallel="$threads" -T "$tmp" -o "$out" "$input")
  if [ "$drop" = 1 ] && [ "$(id -u)" = 0 ]; then
    sync
    echo 3 > /proc/sys/vm/drop_caches
  fi
  local locked=()
  [ -n "$lock" ] && locked=(flock -x "$lock")
  "${locked[@]}" /usr/bin/time -f "%e %U %S %M" -o "$dir/time" "${cmd[@]}"
  read -r wall user sys rss < "$dir/time"
  echo "$wall $(echo "$user + $sys" | bc) $rss"
}

median() { sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }

declare -A walls cpus
for ((r = 1; r <= repeat; r++)); do
  for name in ${cases//,/ }; do
    order="gnu joule"
    [ $((r % 2)) = 0 ] && order="joule gnu"
    for tool in $order; do
      read -r wall cpu rss < <(run "$tool" "$name")
      echo "round $r $name $tool: ${wall} s wall, ${cpu} CPU-s, peak RSS $((rss / 1024)) MB"
      walls[$name-$tool]+="$wall "
      cpus[$name-$tool]+="$cpu "
    done
    cmp "$dir/gnu-$name.out" "$dir/joule-$name.out" || { echo "OUTPUTS DIFFER: $name"; exit 1; }
  done
done
echo "after: $(uptime)"
echo
echo "| case | GNU wall | joule wall | GNU CPU-s | joule CPU-s | GNU / joule wall |"
echo "|---|---:|---:|---:|---:|---:|"
for name in ${cases//,/ }; do
  gw=$(tr ' ' '\n' <<< "${walls[$name-gnu]}" | grep . | median)
  jw=$(tr ' ' '\n' <<< "${walls[$name-joule]}" | grep . | median)
  gc=$(tr ' ' '\n' <<< "${cpus[$name-gnu]}" | grep . | median)
  jc=$(tr ' ' '\n' <<< "${cpus[$name-joule]}" | grep . | median)
  echo "| $name | $gw | $jw | $gc | $jc | $(echo "scale=2; $gw / $jw" | bc) |"
done
rm -f "$dir"/*.out "$dir/time"
