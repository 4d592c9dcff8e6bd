#!/usr/bin/env bash
# Spark's own SQL test suites with joule's operator on: SQLQueryTestSuite on the golden query files
# that sort (order-by*, window*, join*, group-by*, ...), DataFrameWindowFunctionsSuite and
# JoinSuite, from Spark's published test jars, in one JVM with
# spark.sql.extensions=dev.joule.spark.sql.JouleExtensions; at the end it prints how many joule
# sort nodes executed and how many of Spark's sorts were kept (keys without a code), and fails when
# a test failed or joule never ran. Queries whose golden output holds an order Spark does not define
# and joule's differs are left out of the golden files first, each named with its reason
# (scripts/spark-suites/known_differences.py).
#
#   sort-spark/scripts/spark-suites.sh [--quick] [--dir DIR] [-- RUNNER-ARGS...]
#
# --quick runs the subset CI runs (order-by*.sql and window.sql of SQLQueryTestSuite). RUNNER-ARGS
# replace the suite selection (org.scalatest.tools.Runner's -s SUITE, -z SUBSTRING, ...). Needs the
# module built (mvn -B -DskipTests package, and test-compile for its runner class) and Maven to
# resolve Spark's test jars (scripts/spark-suites/pom.xml). DIR (default a temp dir) gets the golden
# files and Spark's warehouse.
set -euo pipefail

quick=0 dir="" runner=()
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=1; shift ;;
    --dir) dir=$2; shift 2 ;;
    --) shift; runner=("$@"); break ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) echo "spark-suites: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done

module=$(cd "$(dirname "$0")/.." && pwd)
jar="$module/target/joule-spark.jar"
tests="$module/target/test-classes"
[ -f "$jar" ] && [ -f "$tests/dev/joule/spark/sql/SparkSuites.class" ] || {
  echo "spark-suites: build first: mvn -B -DskipTests package (the module and its test classes)" >&2
  exit 2
}
work=${dir:-$(mktemp -d)}
[ -n "$dir" ] || trap 'rm -rf "$work"' EXIT
mkdir -p "$work"
(cd "$module/scripts/spark-suites" &&
  mvn -B -q dependency:build-classpath -Dmdep.outputFile="$work/classpath.txt" > /dev/null)
cp=$(cat "$work/classpath.txt")
# SQLQueryTestSuite reads its golden files under spark.test.home, as in Spark's source tree
sql_tests_jar=$(tr ':' '\n' < "$work/classpath.txt" | grep 'spark-sql_2.13-.*-tests.jar$')
mkdir -p "$work/home/sql/core/src/test/resources"
(cd "$work/home/sql/core/src/test/resources" && unzip -q -o "$sql_tests_jar" 'sql-tests/*' 'test-data/*')
# ... and their data files as files, ahead of the jar: Hadoop cannot read a jar: URI
resources="$work/home/sql/core/src/test/resources"
python3 "$module/scripts/spark-suites/known_differences.py" "$resources"

if [ ${#runner[@]} -eq 0 ]; then
  if [ "$quick" = 1 ]; then
    runner=(-s org.apache.spark.sql.SQLQueryTestSuite -z order-by -z window.sql)
  else
    runner=(-s org.apache.spark.sql.SQLQueryTestSuite -z order-by -z window -z join -z group-by
      -z sort -z limit -z having -z union -z subquery
      -s org.apache.spark.sql.DataFrameWindowFunctionsSuite -s org.apache.spark.sql.JoinSuite)
  fi
fi
opens=(--add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.lang.invoke=ALL-UNNAMED
  --add-opens=java.base/java.lang.reflect=ALL-UNNAMED --add-opens=java.base/java.io=ALL-UNNAMED
  --add-opens=java.base/java.net=ALL-UNNAMED --add-opens=java.base/java.nio=ALL-UNNAMED
  --add-opens=java.base/java.util=ALL-UNNAMED --add-opens=java.base/java.util.concurrent=ALL-UNNAMED
  --add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED --add-opens=java.base/jdk.internal.ref=ALL-UNNAMED
  --add-opens=java.base/sun.nio.ch=ALL-UNNAMED --add-opens=java.base/sun.nio.cs=ALL-UNNAMED
  --add-opens=java.base/sun.security.action=ALL-UNNAMED --add-opens=java.base/sun.util.calendar=ALL-UNNAMED
  -Dio.netty.tryReflectionSetAccessible=true -XX:+IgnoreUnrecognizedVMOptions)
cd "$work"
SPARK_LOCAL_IP=127.0.0.1 java -Xmx3g -XX:MaxDirectMemorySize=3g "${opens[@]}" \
  -Dspark.test.home="$work/home" -Dspark.testing=1 \
  -Dspark.sql.extensions=dev.joule.spark.sql.JouleExtensions -Dspark.joule.sql.memory=16m \
  -cp "$resources:$jar:$tests:$cp" dev.joule.spark.sql.SparkSuites -oW "${runner[@]}"
