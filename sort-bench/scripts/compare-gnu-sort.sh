#!/usr/bin/env bash
# End-to-end race: joule sort against GNU sort (and DuckDB with --duckdb) on the same ASCII
# gensort file, in one run.
#
#   sort-bench/scripts/compare-gnu-sort.sh [--records N] [--memory SIZE] [--threads T] [--skew]
#                                          [--repeat R] [--dir DIR] [--no-drop-caches] [--duckdb]
#
# DIR (default bench-out/ in the repository) receives a private work directory, removed at the end.
#
# Steps: generate N ASCII gensort records (an ASCII gensort file is also a file of lines, so GNU
# sort sorts the same bytes); measure the disk's O_DIRECT read and write bandwidth with dd on a
# file of the same size; run `LC_ALL=C sort -S MEM --parallel=T -T DIR` and `joule sort --memory MEM
# --threads T --temp DIR` R times each (page cache dropped before every run when root); check that
# the outputs are byte-identical; print medians of wall time and CPU time, CPU-seconds per GB, the
# speed ratio and the ratio to the two-pass I/O lower bound 2 × (read + write time).
# --duckdb adds DuckDB (duckdb-sort.py: one COPY ... ORDER BY query, memory_limit MEM, T threads,
# temp_directory DIR) to every round; without the duckdb Python module, DuckDB $DUCKDB_VERSION is
# installed into a virtualenv in bench-out/duckdb-venv first (from PyPI).
set -euo pipefail
DUCKDB_VERSION=2.0.0

records=10000000 memory=256m threads=2 repeat=3 skew="" dir="" drop=1 duck=0
while [ $# -gt 0 ]; do
  case "$1" in
    --records) records=$2; shift 2 ;;
    --memory) memory=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
    --skew) skew="-s"; shift ;;
    --dir) dir=$2; shift 2 ;;
    --no-drop-caches) drop=0; shift ;;
    --duckdb) duck=1; shift ;;
    -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
    *) echo "compare-gnu-sort: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done

root=$(cd "$(dirname "$0")/../.." && pwd)
joule="$root/joule"
[ -x "$joule" ] || { echo "compare-gnu-sort: $joule missing" >&2; exit 2; }
# Work in a fresh directory inside --dir (default bench-out/), so that the exit trap removes only
# what this script created.
parent=${dir:-$root/bench-out}
mkdir -p "$parent"
dir=$(mktemp -d "$parent/compare.XXXXXX")
mkdir -p "$dir/tmp"
trap 'rm -rf "$dir"' EXIT

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

bytes=$((records * 100))
echo "== $records ASCII${skew:+ skewed} gensort records ($((bytes / 1000000)) MB), memory $memory, $threads threads, $repeat runs, in $dir"
"$joule" gensort -a $skew -t"$threads" "$records" "$dir/in.dat"

# The disk's bandwidth with O_DIRECT at 4 MiB transfers, on a file as large as the input.
blocks=$(( (bytes + 4194303) / 4194304 ))
drop_caches
w=$( { /usr/bin/time -f '%e' dd if=/dev/zero of="$dir/dd.tmp" bs=4M count=$blocks oflag=direct conv=fsync status=none; } 2>&1 | tail -1)
drop_caches
r=$( { /usr/bin/time -f '%e' dd if="$dir/dd.tmp" of=/dev/null bs=4M iflag=direct status=none; } 2>&1 | tail -1)
rm -f "$dir/dd.tmp"
ddbytes=$((blocks * 4194304))
read_s=$(awk -v t="$r" -v b="$ddbytes" -v n="$bytes" 'BEGIN{printf "%.3f", t * n / b}')
write_s=$(awk -v t="$w" -v b="$ddbytes" -v n="$bytes" 'BEGIN{printf "%.3f", t * n / b}')
bound=$(awk -v r="$read_s" -v w="$write_s" 'BEGIN{printf "%.3f", 2 * (r + w)}')
echo "dd O_DIRECT: read $(awk -v s="$read_s" -v n="$bytes" 'BEGIN{printf "%.0f", n/s/1e6}') MB/s, write $(awk -v s="$write_s" -v n="$bytes" 'BEGIN{printf "%.0f", n/s/1e6}') MB/s; two-pass I/O lower bound ${bound} s"

# run NAME CMD...: appends "wall cpu" to $dir/NAME.times
run() {
  local name=$1; shift
  drop_caches
  /usr/bin/time -o "$dir/time.tmp" -f '%e %U %S' "$@"
  awk '{printf "%s %.2f\n", $1, $2 + $3}' "$dir/time.tmp" >> "$dir/$name.times"
}
for i in $(seq 1 "$repeat"); do
  run gnu env LC_ALL=C sort -S "$memory" --parallel="$threads" -T "$dir/tmp" -o "$dir/gnu.out" "$dir/in.dat"
  run joule "$joule" sort --memory "$memory" --threads "$threads" --temp "$dir/tmp" --quiet "$dir/in.dat" "$dir/joule.out"
  if ! cmp -s "$dir/gnu.out" "$dir/joule.out"; then
    echo "FAIL: joule's output differs from GNU sort's (run $i)" >&2
    exit 1
  fi
  if [ "$duck" = 1 ]; then
    if ! run duckdb "$python" "$root/sort-bench/scripts/duckdb-sort.py" "$dir/in.dat" "$dir/duck.out" \
        --memory "$memory" --threads "$threads" --temp "$dir/tmp/duckdb"; then
      echo "FAIL: DuckDB did not finish (run $i); see its message above" >&2
      exit 1
    fi
    if ! cmp -s "$dir/gnu.out" "$dir/duck.out"; then
      echo "FAIL: DuckDB's output differs from GNU sort's (run $i)" >&2
      exit 1
    fi
    rm -rf "$dir/duck.out" "$dir/tmp/duckdb"
  fi
  rm -f "$dir/gnu.out" "$dir/joule.out"
done

median() { sort -n | awk '{a[NR]=$1} END{print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
gw=$(cut -d' ' -f1 "$dir/gnu.times" | median);   gc=$(cut -d' ' -f2 "$dir/gnu.times" | median)
jw=$(cut -d' ' -f1 "$dir/joule.times" | median); jc=$(cut -d' ' -f2 "$dir/joule.times" | median)
gb=$(awk -v b="$bytes" 'BEGIN{print b/1e9}')
echo "outputs byte-identical in all $repeat runs"
printf '%-10s %10s %10s %10s %12s\n' tool "wall s" "CPU s" "CPU-s/GB" "x I/O bound"
printf '%-10s %10.2f %10.2f %10.2f %12.2f\n' "GNU sort" "$gw" "$gc" "$(awk -v c="$gc" -v g="$gb" 'BEGIN{print c/g}')" "$(awk -v w="$gw" -v b="$bound" 'BEGIN{print w/b}')"
printf '%-10s %10.2f %10.2f %10.2f %12.2f\n' joule "$jw" "$jc" "$(awk -v c="$jc" -v g="$gb" 'BEGIN{print c/g}')" "$(awk -v w="$jw" -v b="$bound" 'BEGIN{print w/b}')"
if [ "$duck" = 1 ]; then
  dw=$(cut -d' ' -f1 "$dir/duckdb.times" | median); dc=$(cut -d' ' -f2 "$dir/duckdb.times" | median)
  printf '%-10s %10.2f %10.2f %10.2f %12.2f\n' DuckDB "$dw" "$dc" "$(awk -v c="$dc" -v g="$gb" 'BEGIN{print c/g}')" "$(awk -v w="$dw" -v b="$bound" 'BEGIN{print w/b}')"
fi
echo "joule is $(awk -v g="$gw" -v j="$jw" 'BEGIN{printf "%.2f", g/j}')x GNU sort's speed (median wall time, same input, same memory)"
if [ "$duck" = 1 ]; then
  echo "joule is $(awk -v d="$dw" -v j="$jw" 'BEGIN{printf "%.2f", d/j}')x DuckDB's speed (median wall time, same input, same memory)"
fi
