#!/usr/bin/env bash
# joule on a real Spark cluster: runs JouleSparkClusterIT, which starts a Spark standalone master
# and two one-core workers on this machine (Spark's own Master and Worker classes, in JVMs of their
# own, on the Spark class path Maven resolved), submits through Spark's spark-submit the file job
# (joule-spark.jar's main class, checked against an in-memory reference sort and the valsort rules)
# and an SQL program with spark.sql.extensions=dev.joule.spark.sql.JouleExtensions (its rows
# checked against Spark's own sort, its JouleSort nodes against the executors' metrics), and stops
# every process it started. About 5 minutes at load 6-9, beyond CI's budget: CI leaves it out
# (sort-spark's failsafe excludes), this script runs it.
#
#   sort-spark/scripts/spark-cluster.sh [MAVEN-ARGS...]
#
# MAVEN-ARGS go to Maven (e.g. -o offline). The cluster's logs and the applications' output are in
# the test's temp directory, deleted afterwards; on a failure the assertion message holds them.
set -euo pipefail
case "${1:-}" in -h|--help) sed -n '2,14p' "$0"; exit 0 ;; esac
cd "$(dirname "$0")/../.."
# -am builds the modules sort-spark needs from this checkout; -Dtest=none runs no unit test
exec mvn -B verify -pl sort-spark -am -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false \
  -Dit.test=JouleSparkClusterIT -Dit.failIfNoSpecifiedTests=false "$@"
