#!/usr/bin/env bash
# The embedding race of issue 27 (sort-bench/README.md, "The embedding session"): key/value pairs
# made in the JVM, sorted by key through joule's pair session and through Apache Lucene's
# OfflineSorter (lucene-core 10.6, the JVM library a platform would otherwise embed), read back in
# order. One JVM per contestant and round, the same flags for all, rounds alternating, the page
# cache dropped before each run; a third contestant, "none", only makes and hashes the pairs: its
# peak RSS is the JVM's own baseline, its time the generator's share of everyone's.
#
#   sort-bench/scripts/race-session-lucene.sh [--pairs N] [--budget MiB] [--rounds R] [--dir DIR]
#       [--modes "joule lucene none"] [--jar NAME=SORT_IO_JAR ...] [-- OPTION=VALUE ...]
#
# Defaults: 3 600 000 pairs (about 1 GB), a 128 MiB budget, 3 rounds, DIR bench-out/session-race.
# --jar adds a joule variant built from another commit (its sort-io jar; sort-core is taken from
# the same directory), run as mode joule under that name, for A/B runs. OPTIONs go to PairRace
# (lucene.threads, lucene.maxTemp, lucene.partitionsInRam, joule.validate, joule.threads,
# joule.compress, joule.mergeAhead).
# Needs JDK 21+ for Lucene 10 (JAVA_HOME, else /usr/lib/jvm/temurin-25-jdk-amd64), a built
# repository (mvn -B -DskipTests package), Maven (fetches lucene-core into ~/.m2), root for
# drop_caches (skipped with a note otherwise). Prints every run and per contestant the medians.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
pairs=3600000 budget=128 rounds=3 dir="$repo/bench-out/session-race" modes="joule lucene none"
jars=()
while [ $# -gt 0 ]; do
  case $1 in
    --pairs) pairs=$2; shift 2 ;;
    --budget) budget=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    --modes) modes=$2; shift 2 ;;
    --jar) jars+=("$2"); shift 2 ;;
    --) shift; break ;;
    *) sed -n '8,17p' "$0" >&2; exit 2 ;;
  esac
done
opts=("$@")
java_home=${JAVA_HOME:-}
if [ -z "$java_home" ] || ! "$java_home/bin/java" -version 2>&1 | grep -qE 'version "(2[1-9]|[3-9][0-9])'; then
  java_home=/usr/lib/jvm/temurin-25-jdk-amd64
fi
java=$java_home/bin/java
lucene_version=10.6.0
m2=${MAVEN_REPO:-$HOME/.m2/repository}
lucene=$m2/org/apache/lucene/lucene-core/$lucene_version/lucene-core-$lucene_version.jar
[ -f "$lucene" ] || mvn -B -q dependency:get "-Dartifact=org.apache.lucene:lucene-core:$lucene_version"
core=$repo/sort-core/target/sort-core-0.1.0-SNAPSHOT.jar
io=$repo/sort-io/target/sort-io-0.1.0-SNAPSHOT.jar
[ -f "$core" ] && [ -f "$io" ] || { echo "build first: mvn -B -DskipTests package" >&2; exit 2; }
# sort-io's codecs (compile dependencies since run compression; loaded even with it off), at the
# versions the parent POM pins
version() { sed -n "s:.*<$1.version>\(.*\)</$1.version>.*:\1:p" "$repo/pom.xml"; }
lz4v=$(version lz4-java) zstdv=$(version zstd-jni)
lz4=$m2/at/yawk/lz4/lz4-java/$lz4v/lz4-java-$lz4v.jar
zstd=$m2/com/github/luben/zstd-jni/$zstdv/zstd-jni-$zstdv.jar
[ -f "$lz4" ] || mvn -B -q dependency:get "-Dartifact=at.yawk.lz4:lz4-java:$lz4v"
[ -f "$zstd" ] || mvn -B -q dependency:get "-Dartifact=com.github.luben:zstd-jni:$zstdv"
lucene="$lucene:$lz4:$zstd"
mkdir -p "$dir/tmp"
variants=()
for m in $modes; do
  case $m in
    joule) variants+=("joule=$core:$io") ;;
    *) variants+=("$m=") ;;
  esac
done
for j in "${jars[@]}"; do
  name=${j%%=*} jar=${j#*=}
  variants+=("$name=$(dirname "$jar")/../../sort-core/target/sort-core-0.1.0-SNAPSHOT.jar:$jar")
done
flags=(-XX:+UseParallelGC -Xms32m -Xmx2g -XX:MaxDirectMemorySize=4g --enable-native-access=ALL-UNNAMED ${RACE_JAVA_FLAGS:-})
drop() {
  if [ "$(id -u)" = 0 ]; then sync; echo 3 > /proc/sys/vm/drop_caches; fi
}
[ "$(id -u)" = 0 ] || echo "note: not root, the page cache is not dropped" >&2
log=$(mktemp)
trap 'rm -f "$log"; rm -rf "$dir/tmp"' EXIT
# PairRace is compiled once per variant, against that variant's jars (the session's types differ
# between builds).
for v in "${variants[@]}"; do
  name=${v%%=*} cp=${v#*=}
  [ -n "$cp" ] || cp="$core:$io"
  mkdir -p "$dir/classes-$name"
  "$java_home/bin/javac" -nowarn -d "$dir/classes-$name" -cp "$cp:$lucene" \
    "$here/session-race/PairRace.java"
done
n=${#variants[@]}
for ((r = 0; r < rounds; r++)); do
  for ((k = 0; k < n; k++)); do
    v=${variants[$(((k + r) % n))]}
    name=${v%%=*} cp=${v#*=}
    mode=$name
    case $name in lucene|none) cp="$core:$io:$lucene" ;; joule) ;; *) mode=joule ;; esac
    rm -rf "$dir/tmp"; mkdir -p "$dir/tmp"
    drop
    start=$(date +%s.%N)
    line=$("$java" "${flags[@]}" -cp "$dir/classes-$name:$cp:$lucene" PairRace "$mode" "$pairs" 42 \
      "$budget" "$dir/tmp" "${opts[@]}" | grep '^mode=')
    wall=$(echo "$(date +%s.%N) - $start" | bc)
    echo "round $r $name $line wall=$wall load=$(cut -d' ' -f1 /proc/loadavg)" | tee -a "$log"
  done
done
awk '
  function median(s,   a, m, i, j, x) {
    m = split(s, a, " ")
    for (i = 2; i <= m; i++) { x = a[i] + 0; for (j = i - 1; j >= 1 && a[j] + 0 > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
    return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
  }
  {
    name = $3
    for (i = 4; i <= NF; i++) { split($i, kv, "="); val[name, kv[1]] = val[name, kv[1]] " " kv[2]; seen[kv[1]] = 1 }
    if (!(name in names)) { names[name] = 1; order[++count] = name }
    sums[name] = sums[name] " " $0
  }
  END {
    printf "%-10s %9s %9s %9s %11s %18s\n", "contestant", "seconds", "cpu", "wall", "hwm MiB", "keyseq"
    for (c = 1; c <= count; c++) {
      n = order[c]
      split(val[n, "keyseq"], ks, " ")
      printf "%-10s %9.2f %9.2f %9.2f %11.0f %18s\n", n, median(val[n, "seconds"]), median(val[n, "cpu"]), median(val[n, "wall"]), median(val[n, "hwm_kib"]) / 1024, ks[1]
    }
  }' "$log"
