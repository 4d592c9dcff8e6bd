#!/usr/bin/env bash
# The Spark SQL race: TPC-H queries whose work is sorting, on vanilla Spark, on Spark with joule's
# operator (spark.sql.extensions=dev.joule.spark.sql.JouleExtensions) and on Apache DataFusion
# Comet, same data, same memory, local[2].
#
#   sort-bench/scripts/race-spark-sql.sh [--sf SF] [--rounds R] [--queries abcd] [--dir DIR]
#                                        [--engines "spark joule comet"] [--drop-caches]
#                                        [--no-check] [--reverse] [--keep FILE]
#
# Queries (sort-bench/scripts/spark-sql-race/queries.py): (a) lineitem ORDER BY l_shipdate,
# l_orderkey, l_linenumber to Parquet; (b) lineitem ORDER BY l_shipinstruct, l_shipmode, l_comment
# (long common prefixes; then the key for a unique order) to Parquet; (c) a sort-merge join of
# lineitem and orders on the order key (broadcast off), aggregated; (d) row_number() OVER
# (PARTITION BY l_suppkey ORDER BY l_extendedprice DESC, then the key), folded into one hash.
#
# Needs: SPARK_HOME, a Spark 4.2 distribution (pip install pyspark==4.2.0 has one: its
# site-packages/pyspark), for spark and joule; SPARK41_HOME (pyspark==4.1.1) and COMET_JAR
# (org.apache.datafusion:comet-spark-spark4.1_2.13:1.2.0) for comet, else comet is skipped (with
# PYSPARK41_PYTHON, the Python that has pyspark 4.1, for comet's driver and PYSPARK_PYTHON's 4.2);
# tpchgen-cli (pip install tpchgen-cli) unless DIR already holds tpch-sfSF/; joule-spark.jar
# (mvn -B -DskipTests package; JOULE_SPARK_JAR names another). Settings for all: local[2], driver -Xmx3g, 512 MiB off-heap, 2
# shuffle partitions, broadcast joins off; joule's sorts take Spark's off-heap pool through the
# task memory manager and direct memory up to 1 GiB. Comet's memory pool is greedy_unified (the
# same 512 MiB): under its default, fair_unified, a sort's final merge, which cannot spill, is held
# to a fair share of the pool and failed the task at SF1 ("Additional allocation failed for
# ExternalSorterMerge"); greedy_unified completed one SF1 round of two. Spills go to a local dir of the run's own (under DIR) for every engine:
# in the shared /tmp, Comet's spill file vanished under it once ("No such file or directory").
#
# Engines: spark (vanilla), joule (its operator), joule-noval (the same without the session's own
# check of count, checksum and order: spark.joule.sort.validate=false), comet.
#
# Every round runs each engine once (a fresh JVM: all queries in turn), alternating which goes
# first. The first round also checks that every engine's output is the same (an order-sensitive
# checksum of each query's rows). Prints per query and engine: wall time of the action, the sort
# operators' metrics (Spark's "sort time", joule's operator time, spill size) and, once, which
# operators ran; then the medians and the ratios to vanilla Spark. --no-check skips the checksums,
# --reverse starts with the last engine, --keep appends the results to FILE (to summarize rounds run
# apart: spark-sql-race/summary.py FILE...), so that each exclusive hold of a shared machine stays
# short.
set -euo pipefail

sf=1 rounds=3 queries=abcd dir="" engines="spark joule comet" drop=0 check=1 reverse=0 keep=""
while [ $# -gt 0 ]; do
  case "$1" in
    --sf) sf=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --queries) queries=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    --engines) engines=$2; shift 2 ;;
    --drop-caches) drop=1; shift ;;
    --no-check) check=0; shift ;;
    --reverse) reverse=1; shift ;;
    --keep) keep=$2; shift 2 ;;
    -h|--help) sed -n '2,39p' "$0"; exit 0 ;;
    *) echo "race-spark-sql: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done

root=$(cd "$(dirname "$0")/../.." && pwd)
jar=${JOULE_SPARK_JAR:-$root/sort-spark/target/joule-spark.jar}
[ -f "$jar" ] || { echo "race-spark-sql: $jar missing: mvn -B -DskipTests package" >&2; exit 2; }
[ -x "${SPARK_HOME:-}/bin/spark-submit" ] || { echo "race-spark-sql: set SPARK_HOME to a Spark 4.2 distribution" >&2; exit 2; }
if [[ " $engines " == *" comet "* ]] && { [ ! -x "${SPARK41_HOME:-}/bin/spark-submit" ] || [ ! -f "${COMET_JAR:-}" ]; }; then
  echo "note: SPARK41_HOME or COMET_JAR not set: comet skipped"
  engines=${engines//comet/}
fi
parent=${dir:-$root/bench-out}
mkdir -p "$parent"
data="$parent/tpch-sf$sf"
if [ ! -f "$data/lineitem.parquet" ] || [ ! -f "$data/orders.parquet" ]; then
  echo "== generating TPC-H SF$sf (lineitem, orders) in $data"
  tpchgen-cli parquet -s "$sf" --tables=lineitem,orders --output-dir="$data"
fi
work=$(mktemp -d "$parent/sql-race.XXXXXX")
trap 'rm -rf "$work"' EXIT
if [ "$drop" = 1 ] && [ "$(id -u)" != 0 ]; then
  echo "note: not root, so the page cache is not dropped between runs"
  drop=0
fi

common=(--master 'local[2]' --driver-memory 3g
  --conf spark.ui.enabled=false --conf spark.driver.host=127.0.0.1
  --conf spark.memory.offHeap.enabled=true --conf spark.memory.offHeap.size=512m
  --conf spark.sql.shuffle.partitions=2 --conf spark.sql.autoBroadcastJoinThreshold=-1
  --conf spark.driver.extraJavaOptions=-XX:MaxDirectMemorySize=1g
  --conf spark.local.dir="$work/local")

# run ENGINE ROUND: one JVM running every query; appends RESULT lines to $work/results
run() {
  local engine=$1 round=$2 submit=$SPARK_HOME/bin/spark-submit extra=() py=${PYSPARK_PYTHON:-python3}
  case "$engine" in
    joule|joule-noval) extra=(--jars "$jar" --conf spark.driver.extraClassPath="$jar"
      --conf spark.sql.extensions=dev.joule.spark.sql.JouleExtensions)
      [ "$engine" = joule-noval ] && extra+=(--conf spark.joule.sort.validate=false) ;;
    comet) submit=$SPARK41_HOME/bin/spark-submit
      py=${PYSPARK41_PYTHON:-$py}
      extra=(--jars "$COMET_JAR" --conf spark.driver.extraClassPath="$COMET_JAR"
        --conf spark.plugins=org.apache.spark.CometPlugin
        --conf spark.shuffle.manager=org.apache.spark.sql.comet.execution.shuffle.CometShuffleManager
        --conf spark.comet.enabled=true --conf spark.comet.exec.enabled=true
        --conf spark.comet.exec.shuffle.enabled=true --conf spark.comet.exec.sort.enabled=true
        --conf spark.comet.exec.window.enabled=true --conf spark.comet.explainFallback.enabled=true
        --conf spark.comet.exec.memoryPool=greedy_unified) ;;
  esac
  if [ "$drop" = 1 ]; then sync; echo 3 > /proc/sys/vm/drop_caches; fi
  local c=0
  [ "$round" = 1 ] && c=$check
  rm -rf "$work/out-$engine" # the last round's tables: CREATE TABLE ... LOCATION wants it empty
  SPARK_LOCAL_IP=127.0.0.1 PYSPARK_PYTHON=$py "$submit" "${common[@]}" "${extra[@]}" \
    "$root/sort-bench/scripts/spark-sql-race/queries.py" "$engine" "$data" "$work/out-$engine" \
    "$queries" "$c" > "$work/$engine.$round.log" 2>&1 || {
    echo "FAIL: $engine, round $round:" >&2; tail -40 "$work/$engine.$round.log" >&2; exit 1; }
  local load
  load=$(cut -d' ' -f1 /proc/loadavg)
  sed -n "s/^RESULT //p" "$work/$engine.$round.log" | while read -r line; do
    echo "$round $load $line" >> "$work/results"
    python3 -c 'import json,sys; r=json.loads(sys.argv[1]); m=r["metrics"]
print("  %-5s (%s) wall %6.2f s  %s" % (r["engine"], r["query"], r["wall"],
  "  ".join("%s=%s" % (k, v) for k, v in sorted(m.items()) if v)))' "$line"
  done
}

echo "== TPC-H SF$sf, queries $queries, engines: $engines, $rounds rounds, in $work"
read -r -a list <<< "$engines"
for r in $(seq 1 "$rounds"); do
  echo "round $r (load $(cut -d' ' -f1 /proc/loadavg))"
  if [ $(((r + reverse) % 2)) = 1 ]; then order=("${list[@]}"); else order=(); for ((i=${#list[@]}-1; i>=0; i--)); do order+=("${list[i]}"); done; fi
  for e in "${order[@]}"; do run "$e" "$r"; done
done
[ -n "$keep" ] && cat "$work/results" >> "$keep"
python3 "$root/sort-bench/scripts/spark-sql-race/summary.py" "$work/results"
