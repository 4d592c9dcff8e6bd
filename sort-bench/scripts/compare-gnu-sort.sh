#!/usr/bin/env bash
# End-to-end race: joule sort against GNU sort (and DuckDB with --duckdb) on the same inputs, with
# the same options and memory, in the same rounds, outputs checked byte for byte.
#
#   sort-bench/scripts/compare-gnu-sort.sh [--workload LIST] [--records N] [--csv-lines N]
#       [--dups-lines N] [--dups-values V] [--tpch-sf SF] [--memory SIZE] [--threads T] [--skew] [--repeat R]
#       [--dir DIR] [--no-drop-caches] [--duckdb] [--duckdb-memory SIZE] [--keep]
#
# Workloads (--workload, comma-separated; default gensort; `text` = lines,csv,dups; `all`):
#   gensort  N ASCII gensort records (--records, default 10^7 = 1 GB) sorted as fixed 100-byte
#            records by joule (--gensort, key = first 10 bytes, stable) and as lines by GNU sort;
#            both orders agree, as the record number after the key breaks ties. -S 256M.
#   lines    the same file sorted as plain text lines by both (no --gensort): each line is a
#            98-byte record plus its CRLF, compared whole. -S 256M.
#   csv      --csv-lines lines (default 6e6, ~246 MB) of `id,name,amount,date` from gen-text.py,
#            `-t, -k3,3n -k2,2r`, -S 64M (spills).
#   dups     --dups-lines lines (default 10^7, ~60 MB) drawn from ~--dups-values (1000) numbers
#            spelled with leading zeros, signs and decimals (gen-text.py), sorted twice: `-u` and
#            `-n` (cases dups-u and dups-n). -S 64M.
#   lineitem TPC-H's lineitem.tbl at scale factor --tpch-sf (default 1: 6·10^6 lines, ~760 MB,
#            `|`-separated) made by tpchgen-cli (pip install tpchgen-cli), sorted by three key sets
#            mixing text, numbers and ISO dates, -S 256M: li-date `-k11,11 -k1,1n` (ship date,
#            then order key), li-price `-k6,6nr -k16,16` (extended price descending, then the
#            comment), li-mode `-k15,15 -k5,5n -k12,12r` (ship mode, quantity, commit date
#            descending). Not `text` or `all`; DuckDB sits these cases out.
# --memory SIZE overrides every workload's -S (GNU's units: a bare number is KiB; K, M, G suffixes).
#
# One script for all of them, not a sibling for the text workloads: they share everything but the
# input and the options (work directory, cache dropping, timing, byte-for-byte checks, DuckDB,
# medians), and the gensort and lines workloads sort the very same file, so they belong in the same
# rounds.
#
# Steps: generate each input once (`joule gensort -a`, gen-text.py, seeded); measure the disk's
# O_DIRECT read and write bandwidth with dd on a file as large as the largest input; then R rounds,
# each running every case with
#   GNU:    LC_ALL=C sort OPTS -S MEM --parallel=T -T DIR -o OUT IN
#   joule:  joule sort [--gensort] OPTS -S MEM --parallel=T -T DIR -o OUT IN
#   DuckDB: duckdb-sort.py IN OUT --memory MEM --threads T --temp DIR (with the case's ORDER BY)
# (the page cache dropped before every run when root; the tools' order rotates from round to round),
# and `cmp` of joule's and DuckDB's output against GNU sort's. Prints every run, then per case the
# medians of wall time and CPU-seconds (user + sys, /usr/bin/time), CPU-seconds per GB of input,
# GNU wall / joule wall and GNU CPU / joule CPU (ratio of the medians, and the median of the
# ratios within a round), and wall / the two-pass I/O lower bound 2 × (read + write time of the input
# at dd's bandwidth), as a Markdown table, with `uptime` before and after.
# A tool that fails or writes different bytes is reported with its command line, its exit code, the
# last lines of its standard error, `cmp`'s first difference and a diff of the lines around it; the
# case is dropped from later rounds (only DuckDB, if it was DuckDB), the script goes on with the
# other cases and exits 1 at the end (not for a DuckDB that fails, e.g. out of memory: a note).
#
# DIR (default bench-out/ in the repository) receives a private work directory, removed at the end
# unless a case failed (then it is kept for the reproducer, and its path printed) or with --keep.
# JOULE=PATH runs another joule launcher instead of the repository's ./joule.
# --duckdb adds DuckDB to every case; without the duckdb Python module, DuckDB $DUCKDB_VERSION is
# installed into a virtualenv in bench-out/duckdb-venv first (from PyPI). DuckDB 2.0 runs out of
# memory at -S 64M on the csv and dups inputs; --duckdb-memory gives it another budget (it is then
# no longer the same race: say so beside its figures).
set -euo pipefail
DUCKDB_VERSION=2.0.0

workloads=gensort records=10000000 csv_lines=6000000 dups_lines=10000000 dups_values=1000 tpch_sf=1
memory="" duck_memory="" threads=2 repeat=3 skew="" dir="" drop=1 duck=0 keep=0
while [ $# -gt 0 ]; do
  case "$1" in
    --workload) workloads=$2; shift 2 ;;
    --records) records=$2; shift 2 ;;
    --csv-lines) csv_lines=$2; shift 2 ;;
    --dups-lines) dups_lines=$2; shift 2 ;;
    --dups-values) dups_values=$2; shift 2 ;;
    --tpch-sf) tpch_sf=$2; shift 2 ;;
    --memory) memory=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
    --skew) skew="-s"; shift ;;
    --dir) dir=$2; shift 2 ;;
    --no-drop-caches) drop=0; shift ;;
    --duckdb) duck=1; shift ;;
    --duckdb-memory) duck_memory=$2; shift 2 ;;
    --keep) keep=1; shift ;;
    -h|--help) sed -n '2,56p' "$0"; exit 0 ;;
    *) echo "compare-gnu-sort: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
workloads=${workloads//text/lines,csv,dups}
workloads=${workloads//all/gensort,lines,csv,dups}
for w in ${workloads//,/ }; do
  case "$w" in
    gensort|lines|csv|dups|lineitem) ;;
    *) echo "compare-gnu-sort: unknown workload $w (gensort, lines, csv, dups, lineitem, text, all)" >&2; exit 2 ;;
  esac
done
want() { [[ ",$workloads," == *",$1,"* ]]; }

root=$(cd "$(dirname "$0")/../.." && pwd)
scripts="$root/sort-bench/scripts"
joule=${JOULE:-$root/joule}
# Train the launcher's start-up cache now: on a new build its first run would train one in the
# background, beside the next runs being timed (8 s more for one of them on a 2-vCPU VM).
JOULE_AOT=train "$joule" --version >/dev/null 2>&1 || true
[ -x "$joule" ] || { echo "compare-gnu-sort: $joule missing" >&2; exit 2; }
# Work in a fresh directory inside --dir (default bench-out/), so that the exit trap removes only
# what this script created.
parent=${dir:-$root/bench-out}
mkdir -p "$parent"
dir=$(mktemp -d "$parent/compare.XXXXXX")
mkdir -p "$dir/tmp"
failed=0
cleanup() {
  if [ "$keep" = 1 ] || [ "$failed" = 1 ]; then
    rm -rf "$dir/tmp"; echo "work directory kept: $dir (remove it when done)" >&2
  else
    rm -rf "$dir"
  fi
}
trap cleanup EXIT

python=python3
if [ "$duck" = 1 ] && ! python3 -c 'import duckdb' 2>/dev/null; then
  venv="$root/bench-out/duckdb-venv"
  if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import duckdb' 2>/dev/null; then
    echo "installing duckdb==$DUCKDB_VERSION into $venv"
    python3 -m venv "$venv" && "$venv/bin/pip" install -q "duckdb==$DUCKDB_VERSION"
  fi
  python="$venv/bin/python"
fi

if [ "$drop" = 1 ] && [ "$(id -u)" != 0 ]; then
  echo "note: not root, so the page cache is not dropped between runs (results favour cached reads)"
  drop=0
fi
drop_caches() { if [ "$drop" = 1 ]; then sync; echo 3 > /proc/sys/vm/drop_caches; fi; }

# GNU sort's -S units (bare number = KiB; b, K, M, G, T suffixes, either case) -> MiB, for DuckDB
mib() {
  awk -v s="$1" 'BEGIN {
    n = s + 0; u = toupper(substr(s, length(s)))
    f = (u == "B") ? 1 : (u == "M") ? 1048576 : (u == "G") ? 1073741824 : (u == "T") ? 1099511627776 : 1024
    printf "%d", n * f / 1048576 }'
}

# --- the cases --------------------------------------------------------------------------------------
# case NAME INPUT MEMORY GENSORT(0/1) DUCKDB-ARGS -- SORT-OPTIONS...
cases=()
declare -A c_in c_mem c_gensort c_duck c_opts
add_case() {
  local name=$1; c_in[$name]=$2 c_mem[$name]=${memory:-$3} c_gensort[$name]=$4 c_duck[$name]=$5
  shift 6; c_opts[$name]="$*"; cases+=("$name")
}
echo "== $(date -u +%FT%TZ), $(nproc) CPUs, $("${JAVA_HOME:+$JAVA_HOME/bin/}java" -version 2>&1 | head -1), $(LC_ALL=C sort --version | head -1)"
echo "== workloads $workloads; $threads threads, $repeat rounds, in $dir"
if want gensort || want lines; then
  echo "-- $records ASCII${skew:+ skewed} gensort records ($((records / 10000)) MB) -> gensort.in"
  "$joule" gensort -a $skew -t"$threads" "$records" "$dir/gensort.in" > /dev/null
  want gensort && add_case gensort "$dir/gensort.in" 256M 1 "" --
  want lines && add_case lines "$dir/gensort.in" 256M 0 "" --
fi
if want csv; then
  echo "-- $csv_lines CSV lines -> csv.in"
  python3 "$scripts/gen-text.py" csv "$csv_lines" "$dir/csv.in"
  add_case csv "$dir/csv.in" 64M 0 "--newline lf --order csv-k3n-k2r" -- -t, -k3,3n -k2,2r
fi
if want dups; then
  echo "-- $dups_lines lines of ~$dups_values distinct numbers -> dups.in"
  python3 "$scripts/gen-text.py" dups "$dups_lines" "$dir/dups.in" --values "$dups_values"
  add_case dups-u "$dir/dups.in" 64M 0 "--newline lf --distinct" -- -u
  add_case dups-n "$dir/dups.in" 64M 0 "--newline lf --order n" -- -n
fi
if want lineitem; then
  command -v tpchgen-cli >/dev/null ||
    { echo "compare-gnu-sort: the lineitem workload needs tpchgen-cli (pip install tpchgen-cli)" >&2; exit 2; }
  echo "-- TPC-H lineitem at scale factor $tpch_sf -> lineitem.tbl"
  tpchgen-cli -s "$tpch_sf" --tables lineitem --output-dir "$dir" > /dev/null
  # no DuckDB ORDER BY for these (empty DuckDB arguments): DuckDB sits them out
  add_case li-date "$dir/lineitem.tbl" 256M 0 "" -- "-t|" -k11,11 -k1,1n
  add_case li-price "$dir/lineitem.tbl" 256M 0 "" -- "-t|" -k6,6nr -k16,16
  add_case li-mode "$dir/lineitem.tbl" 256M 0 "" -- "-t|" -k15,15 -k5,5n -k12,12r
fi
declare -A c_bytes
largest=0
for c in "${cases[@]}"; do
  c_bytes[$c]=$(stat -c %s "${c_in[$c]}")
  [ "${c_bytes[$c]}" -gt "$largest" ] && largest=${c_bytes[$c]}
done

# The command lines of case C and tool T into the array cmd
command_of() {
  local c=$1 t=$2 out="$dir/$1.$2.out"
  # shellcheck disable=SC2206
  local opts=(${c_opts[$c]})
  case "$t" in
    gnu) cmd=(env LC_ALL=C sort "${opts[@]}" -S "${c_mem[$c]}" --parallel="$threads" -T "$dir/tmp" -o "$out" "${c_in[$c]}") ;;
    joule)
      cmd=("$joule" sort)
      [ "${c_gensort[$c]}" = 1 ] && cmd+=(--gensort)
      cmd+=("${opts[@]}" -S "${c_mem[$c]}" --parallel="$threads" -T "$dir/tmp" -o "$out" "${c_in[$c]}") ;;
    duckdb)
      # shellcheck disable=SC2206
      local d=(${c_duck[$c]})
      cmd=("$python" "$scripts/duckdb-sort.py" "${c_in[$c]}" "$out" --memory "$(mib "${duck_memory:-${c_mem[$c]}}")MiB"
           --threads "$threads" --temp "$dir/tmp/duckdb" "${d[@]}") ;;
  esac
}
tools=(gnu joule)
[ "$duck" = 1 ] && tools+=(duckdb)
for c in "${cases[@]}"; do
  echo "-- case $c: $((c_bytes[$c] / 1000000)) MB"
  for t in "${tools[@]}"; do command_of "$c" "$t"; printf '   %-6s %s\n' "$t" "${cmd[*]}"; done
done

# The disk's bandwidth with O_DIRECT at 4 MiB transfers, on a file as large as the largest input.
blocks=$(( (largest + 4194303) / 4194304 ))
drop_caches
w=$( { /usr/bin/time -f '%e' dd if=/dev/zero of="$dir/dd.tmp" bs=4M count=$blocks oflag=direct conv=fsync status=none; } 2>&1 | tail -1)
drop_caches
r=$( { /usr/bin/time -f '%e' dd if="$dir/dd.tmp" of=/dev/null bs=4M iflag=direct status=none; } 2>&1 | tail -1)
rm -f "$dir/dd.tmp"
ddbytes=$((blocks * 4194304))
read_bw=$(awk -v t="$r" -v b="$ddbytes" 'BEGIN{printf "%.0f", b / t}')
write_bw=$(awk -v t="$w" -v b="$ddbytes" 'BEGIN{printf "%.0f", b / t}')
echo "dd O_DIRECT: read $((read_bw / 1000000)) MB/s, write $((write_bw / 1000000)) MB/s"
bound() { awk -v n="$1" -v r="$read_bw" -v w="$write_bw" 'BEGIN{printf "%.3f", 2 * (n / r + n / w)}'; }

# --- the rounds -------------------------------------------------------------------------------------
declare -A dead
# fail CASE TOOL WHAT: report a failed or different run and drop the case (DuckDB: only DuckDB)
fail() {
  local c=$1 t=$2 what=$3 label=FAIL
  if [ "$t" = duckdb ]; then
    dead[$c.$t]=1
    [[ "$what" == "exit code"* ]] && label=NOTE || failed=1
  else
    failed=1 dead[$c]=1
  fi
  command_of "$c" "$t"
  {
    echo "$label: case $c, $t: $what"
    echo "  command: ${cmd[*]}"
    if [ -s "$dir/$c.$t.err" ]; then
      echo "  its stderr (first error line, last lines):"
      { grep -m1 -i error "$dir/$c.$t.err" || true; tail -3 "$dir/$c.$t.err"; } | sed 's/^/    /'
    fi
  } >&2
}
# compare CASE TOOL: cmp TOOL's output with GNU sort's; on a difference print where and keep both
compare() {
  local c=$1 t=$2 a="$dir/$1.gnu.out" b="$dir/$1.$2.out" where line
  if where=$(cmp "$a" "$b" 2>&1); then return 0; fi
  fail "$c" "$t" "output differs from GNU sort's"
  echo "  cmp: $where" >&2
  echo "  sizes: GNU $(stat -c %s "$a" 2>/dev/null) bytes, $t $(stat -c %s "$b" 2>/dev/null) bytes" >&2
  line=$(sed -n 's/.*line \([0-9]*\).*/\1/p' <<< "$where")
  if [ -n "$line" ]; then
    local from=$(( line > 3 ? line - 3 : 1 ))
    echo "  diff of lines $from..$((line + 3)) (< GNU, > $t):" >&2
    diff <(sed -n "${from},$((line + 3))p" "$a") <(sed -n "${from},$((line + 3))p" "$b") | sed 's/^/    /' >&2 || true
  fi
  cp "$a" "$dir/$c.gnu.kept"; mv "$b" "$dir/$c.$t.kept"
}
# run CASE TOOL ROUND: one timed run; appends "wall cpu" to $dir/CASE.TOOL.times
run() {
  local c=$1 t=$2 i=$3 rc=0
  command_of "$c" "$t"
  rm -f "$dir/$c.$t.out"
  drop_caches
  /usr/bin/time -o "$dir/time.tmp" -f '%e %U %S %M' "${cmd[@]}" > "$dir/$c.$t.stdout" 2> "$dir/$c.$t.err" || rc=$?
  if [ "$rc" != 0 ]; then fail "$c" "$t" "exit code $rc (round $i)"; return 1; fi
  read -r wall user sys rss < <(tail -1 "$dir/time.tmp")
  echo "$wall $(awk -v u="$user" -v s="$sys" 'BEGIN{printf "%.2f", u + s}')" >> "$dir/$c.$t.times"
  printf '   round %d %-8s %-6s wall %7.2f s  CPU %7.2f s  max RSS %5d MB  load %s\n' "$i" "$c" "$t" "$wall" \
    "$(awk -v u="$user" -v s="$sys" 'BEGIN{print u + s}')" $((rss / 1024)) "$(cut -d' ' -f1 /proc/loadavg)"
}
# DuckDB sits out the cases that give it no arguments (no ORDER BY written for them)
sits_out() { [ "$2" = duckdb ] && [ -z "${c_duck[$1]}" ]; }
echo "== uptime before:$(uptime)"
for i in $(seq 1 "$repeat"); do
  for c in "${cases[@]}"; do
    [ -n "${dead[$c]:-}" ] && continue
    # rotate the order of the tools from round to round
    order=()
    for ((k = 0; k < ${#tools[@]}; k++)); do order+=("${tools[$(( (k + i - 1) % ${#tools[@]} ))]}"); done
    for t in "${order[@]}"; do
      [ -n "${dead[$c]:-}" ] && break
      [ -n "${dead[$c.$t]:-}" ] && continue
      sits_out "$c" "$t" && continue
      run "$c" "$t" "$i" || true
      rm -rf "$dir/tmp/duckdb"
    done
    [ -n "${dead[$c]:-}" ] && continue
    for t in "${tools[@]}"; do
      [ "$t" = gnu ] || [ -n "${dead[$c.$t]:-}" ] || sits_out "$c" "$t" || compare "$c" "$t" || true
    done
    rm -f "$dir/$c".*.out
  done
done
echo "== uptime after: $(uptime)"

# --- the figures ------------------------------------------------------------------------------------
median() { sort -n | awk '{a[NR]=$1} END{print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
echo "== medians of $repeat rounds; CPU = user + sys seconds; x bound = wall / (2 x (read + write) at dd's bandwidth);"
echo "   GNU/tool: ratio of the medians, and in brackets the median of the per-round ratios (same round, so"
echo "   the same load); above 1 means the tool beat GNU sort"
printf '| %-8s | %8s | %-6s | %7s | %7s | %8s | %7s | %-15s | %-15s |\n' case "input MB" tool "wall s" "CPU s" "CPU-s/GB" "x bound" "GNU/tool wall" "GNU/tool CPU"
printf '|----------|---------:|--------|--------:|--------:|---------:|--------:|----------------:|----------------:|\n'
# paired COLUMN CASE TOOL: median over the rounds of GNU's value / the tool's value in the same round
paired() { paste -d' ' <(cut -d' ' -f"$1" "$dir/$2.gnu.times") <(cut -d' ' -f"$1" "$dir/$2.$3.times") | awk 'NF == 2 && $2 > 0 {print $1 / $2}' | median; }
for c in "${cases[@]}"; do
  if [ -n "${dead[$c]:-}" ]; then
    printf '| %-8s | %8d | failed: see FAIL above |\n' "$c" $((c_bytes[$c] / 1000000)); continue
  fi
  gw=$(cut -d' ' -f1 "$dir/$c.gnu.times" | median); gc=$(cut -d' ' -f2 "$dir/$c.gnu.times" | median)
  for t in "${tools[@]}"; do
    sits_out "$c" "$t" && continue
    if [ -n "${dead[$c.$t]:-}" ]; then printf '| %-8s | %8d | %-6s | failed: see above |\n' "$c" $((c_bytes[$c] / 1000000)) "$t"; continue; fi
    tw=$(cut -d' ' -f1 "$dir/$c.$t.times" | median); tc=$(cut -d' ' -f2 "$dir/$c.$t.times" | median)
    awk -v c="$c" -v t="$t" -v n="${c_bytes[$c]}" -v w="$tw" -v cpu="$tc" -v g="$gw" -v gc="$gc" \
        -v b="$(bound "${c_bytes[$c]}")" -v pw="$(paired 1 "$c" "$t")" -v pc="$(paired 2 "$c" "$t")" \
      'BEGIN { printf "| %-8s | %8d | %-6s | %7.2f | %7.2f | %8.2f | %7.2f | %5.2fx (%5.2fx) | %5.2fx (%5.2fx) |\n",
               c, n / 1e6, (t == "gnu") ? "GNU" : t, w, cpu, cpu / (n / 1e9), w / b, g / w, pw, gc / cpu, pc }'
  done
done
[ "$failed" = 0 ] && echo "outputs byte-identical to GNU sort's in every round"
exit "$failed"
