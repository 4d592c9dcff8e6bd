#!/usr/bin/env bash
# A/B of whole `joule sort --gensort` runs of 1 GB, alternating jars in the same rounds, with the
# I/O bound of the same rounds (docs/decisions/D21; sort-bench/README.md, "The one-pass path").
#
#   sort-bench/scripts/onepass-ab.sh DIR ROUNDS NAME=JAR[:MEMORY] ...
#
# DIR holds the input (in.dat; made with `./joule gensort 10000000` if missing) and the outputs.
# Each round: caches dropped, dd reads in.dat and writes 1 GB with O_DIRECT in 4 MiB transfers (the
# one-pass I/O bound is read + write); then every variant once, in an order rotated per round,
# caches dropped before each: `java` with the launcher's flags, `-S MEMORY` (default 1600M, one pass
# for 10^7 records), its output compared byte for byte with the first variant's of the round. Prints
# every run (wall, user, sys, minor faults, load) and per variant the medians and ratios to the
# first variant. Needs root (drop_caches), GNU time, awk.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
[ $# -ge 3 ] || { sed -n '5p' "$0" >&2; exit 2; }
dir=$1 rounds=$2
shift 2
mkdir -p "$dir/tmp"
cd "$dir"
[ -f in.dat ] || "$repo/joule" gensort 10000000 in.dat
mem_kb=$(awk '/^MemTotal:/ {print $2; exit}' /proc/meminfo)
drop() { sync; echo 3 > /proc/sys/vm/drop_caches; }
load() { cut -d' ' -f1 /proc/loadavg; }
log=$(mktemp)
trap 'rm -f "$log" "$dir"/out-*.dat "$dir/dd.dat"' EXIT
n=$#
for ((r = 0; r < rounds; r++)); do
  drop
  rd=$(dd if=in.dat of=/dev/null bs=4M iflag=direct 2>&1 | awk 'END {print $(NF-3)}')
  wr=$(dd if=/dev/zero of=dd.dat bs=4M count=239 oflag=direct conv=fsync 2>&1 | awk 'END {print $(NF-3)}')
  rm -f dd.dat
  echo "round $r dd $rd $wr load $(load)" | tee -a "$log"
  first=""
  for ((k = 0; k < n; k++)); do
    i=$(((k + r) % n + 1))
    v=${!i} name=${v%%=*} rest=${v#*=}
    jar=${rest%%:*} mem=${rest#*:}
    [ "$mem" = "$rest" ] && mem=1600M
    drop
    t=$( { /usr/bin/time -f 'TIME %e %U %S %R' java -XX:+UseParallelGC \
      "-XX:MaxDirectMemorySize=${mem_kb}k" -jar "$jar" sort --gensort -S "$mem" -T tmp \
      -o "out-$i.dat" in.dat; } 2>&1 | grep '^TIME')
    echo "round $r run $name ${t#TIME } load $(load)" | tee -a "$log"
    if [ -z "$first" ]; then
      first=out-$i.dat
    elif ! cmp -s "$first" "out-$i.dat"; then
      echo "output of $name differs from $first" >&2
      exit 1
    fi
  done
  rm -f out-*.dat
done
awk '
  # mawk has no asort: split and insertion-sort the values of a list
  function sorted(s, a,   m, i, j, x) {
    m = split(s, a, " ")
    for (i = 2; i <= m; i++) { x = a[i] + 0; for (j = i - 1; j >= 1 && a[j] + 0 > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
    return m
  }
  function median(s,   a, m) { m = sorted(s, a); return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2 }
  function lo(s,   a) { sorted(s, a); return a[1] }
  function hi(s,   a, m) { m = sorted(s, a); return a[m] }
  $3 == "dd" { rd = rd " " $4; wr = wr " " $5; ld = ld " " $7; next }
  { if (!($4 in seen)) { seen[$4] = 1; order[++vs] = $4 }
    w[$4] = w[$4] " " $5; c[$4] = c[$4] " " ($6 + $7); f[$4] = f[$4] " " $8; ld = ld " " $10 }
  END {
    bound = median(rd) + median(wr)
    printf "dd read %.3f s, write %.3f s: I/O bound %.3f s; load %s..%s\n", median(rd), median(wr), bound, lo(ld), hi(ld)
    for (i = 1; i <= vs; i++) {
      v = order[i]; mw = median(w[v]); mc = median(c[v])
      if (i == 1) { bw = mw; bc = mc }
      printf "%-16s wall %.2f s (%.2fx, %.2fx bound)  CPU %.2f s (%.2fx)  minor faults %d\n", v, mw, mw / bw, mw / bound, mc, mc / bc, median(f[v])
    }
  }
' "$log"
