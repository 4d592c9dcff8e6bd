#!/usr/bin/env bash
# Sequential read and write of one file through joule's block layer (BlockIoThroughput) next to dd
# at the same transfer size, with and without O_DIRECT, dropping the page cache before every run.
#
#   sort-bench/scripts/io-bench.sh [DIR]        (default DIR: bench-out/io-bench.<pid> in the repository; needs root for drop_caches)
#   SIZE_MB=2048 TRANSFERS="1 4 16" REPS=3 JAVA=java sort-bench/scripts/io-bench.sh
#
# Each cell is the median of REPS runs; dd and joule alternate, so load from other users of the
# machine hits both sides alike. Old files are removed before a write, outside the timing.
# Both sides fsync at the end (dd conv=fsync; joule finish(force)), so the buffered write figures
# include writeback. Prints a table of MB/s (10^6 bytes/s) and the joule/dd ratio. The big files are
# deleted on exit.
set -euo pipefail
cd "$(dirname "$0")/../.."
JAR=sort-bench/target/benchmarks.jar
JAVA=${JAVA:-java}
SIZE_MB=${SIZE_MB:-2048}
TRANSFERS=${TRANSFERS:-"1 4 16"}
REPS=${REPS:-3}
DIR=${1:-bench-out/io-bench.$$}
[ -f "$JAR" ] || { echo "build first: mvn -B -pl sort-bench -am package -DskipTests" >&2; exit 2; }
mkdir -p "$DIR"
trap 'rm -f "$DIR"/dd.bin "$DIR"/joule.bin; rmdir "$DIR" 2>/dev/null || true' EXIT
BYTES=$((SIZE_MB * 1048576))

median() { printf "%s\n" "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

drop() { sync; echo 3 > /proc/sys/vm/drop_caches; }

# dd's "N bytes (...) copied, S s, R GB/s" line plus /usr/bin/time's "cpu U S" line
#   -> "MB/s cpu-s/GB", computed from N, S and U+S
dd_mbs() {
  awk '/copied/ { for (i = 1; i <= NF; i++) if ($i == "copied,") s = $(i+1); n = $1 }
       /^cpu / { c = $2 + $3 }
       END { printf "%.1f %.3f", n / s / 1e6, c / (n / 1e9) }'
}

run_dd() { # op T mode
  local op=$1 t=$2 mode=$3 flag=""
  if [ "$op" = write ]; then
    [ "$mode" = direct ] && flag="oflag=direct"
    rm -f "$DIR/dd.bin"; sync
    /usr/bin/time -f "cpu %U %S" dd if=/dev/zero of="$DIR/dd.bin" bs=${t}M count=$((SIZE_MB / t)) $flag conv=fsync 2>&1 | dd_mbs
  else
    [ "$mode" = direct ] && flag="iflag=direct"
    /usr/bin/time -f "cpu %U %S" dd if="$DIR/dd.bin" of=/dev/null bs=${t}M $flag 2>&1 | dd_mbs
  fi
}

run_joule() { # op T mode
  local onoff=off
  [ "$3" = direct ] && onoff=on
  [ "$1" = write ] && { rm -f "$DIR/joule.bin"; sync; }
  "$JAVA" -da -Xmx512m -XX:MaxDirectMemorySize=256m -cp "$JAR" dev.joule.bench.io.BlockIoThroughput \
    "$1" "$DIR/joule.bin" "$BYTES" $(($2 * 1048576)) $onoff | awk '{ print $7, $8 }'
}

echo "# $(date -u +%FT%TZ) $(uname -r) $("$JAVA" -version 2>&1 | head -1); ${SIZE_MB} MiB file in $DIR ($(df --output=source,fstype "$DIR" | tail -1))"
echo "# load before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf "| %-5s | %-8s | %-8s | %10s | %10s | %6s | %12s | %12s |\n" op transfer mode "joule MB/s" "dd MB/s" ratio "joule cpu-s/GB" "dd cpu-s/GB"
printf "|-------|----------|----------|-----------:|-----------:|-------:|-------------:|-------------:|\n"
for t in $TRANSFERS; do
  for mode in direct buffered; do
    for op in write read; do
      ds=(); js=(); dc=(); jc=()
      for ((r = 0; r < REPS; r++)); do
        drop; read -r v c <<< "$(run_dd "$op" "$t" "$mode")"; ds+=("$v"); dc+=("$c")
        drop; read -r v c <<< "$(run_joule "$op" "$t" "$mode")"; js+=("$v"); jc+=("$c")
      done
      d=$(median "${ds[@]}"); j=$(median "${js[@]}")
      echo "#   $op $t MiB $mode MB/s: dd ${ds[*]} | joule ${js[*]}" >&2
      printf "| %-5s | %-8s | %-8s | %10s | %10s | %5.0f%% | %12s | %12s |\n" "$op" "${t} MiB" "$mode" "$j" "$d" \
        "$(awk -v j="$j" -v d="$d" 'BEGIN { print 100 * j / d }')" "$(median "${jc[@]}")" "$(median "${dc[@]}")"
    done
  done
done
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"
