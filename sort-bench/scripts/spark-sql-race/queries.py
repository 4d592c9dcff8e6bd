"""One engine's run of the Spark SQL race (driven by ../race-spark-sql.sh): TPC-H queries (a)-(d),
each timed as its action in this driver, with the sort operators' metrics from the executed plan
and, when asked, an order-sensitive checksum of the query's output (in an untimed second job).
Prints one line per query: RESULT <json>."""
import json
import sys
import time

from pyspark.sql import SparkSession

engine, data, out_dir, queries, checksum = sys.argv[1:6]
spark = SparkSession.builder.appName("race-spark-sql-" + engine).getOrCreate()
spark.sparkContext.setLogLevel("WARN")
spark.read.parquet(data + "/lineitem.parquet").createOrReplaceTempView("lineitem")
spark.read.parquet(data + "/orders.parquet").createOrReplaceTempView("orders")
jvm = spark._jvm
conv = jvm.scala.jdk.javaapi.CollectionConverters

# (name, the query, how its output is produced: a Parquet write or a collected aggregate)
QUERIES = {
    "a": ("ORDER BY l_shipdate, l_orderkey, l_linenumber, to Parquet",
          "SELECT * FROM lineitem ORDER BY l_shipdate, l_orderkey, l_linenumber", "write"),
    "b": ("ORDER BY l_shipinstruct, l_shipmode, l_comment (long common prefixes), to Parquet",
          "SELECT * FROM lineitem ORDER BY l_shipinstruct, l_shipmode, l_comment,"
          " l_orderkey, l_linenumber", "write"),
    "c": ("sort-merge join lineitem x orders on the order key, aggregated",
          "SELECT o_orderpriority, count(*) AS n, sum(l_quantity) AS q, sum(o_totalprice) AS t"
          " FROM lineitem JOIN orders ON l_orderkey = o_orderkey"
          " GROUP BY o_orderpriority ORDER BY o_orderpriority", "collect"),
    "d": ("row_number() OVER (PARTITION BY l_suppkey ORDER BY l_extendedprice DESC, ties by key)",
          "SELECT l_orderkey, l_linenumber, row_number() OVER (PARTITION BY l_suppkey"
          " ORDER BY l_extendedprice DESC, l_orderkey, l_linenumber) AS rn FROM lineitem",
          "window"),
}


for q in "ab":
    spark.sql("DROP TABLE IF EXISTS out_%s" % q)
    spark.sql("CREATE TABLE out_%s USING parquet LOCATION '%s/%s' AS SELECT * FROM lineitem"
              " WHERE false" % (q, out_dir, q))


def nodes(plan):
    """Every node of an executed plan, through adaptive plans and query stages."""
    name = plan.getClass().getSimpleName()
    if name == "AdaptiveSparkPlanExec":
        yield from nodes(plan.executedPlan())
        return
    if name.endswith("QueryStageExec") or name == "CommandResultExec":
        inner = plan.plan() if name.endswith("QueryStageExec") else plan.commandPhysicalPlan()
        yield from nodes(inner)
        return
    yield plan
    children = plan.children()
    for i in range(children.size()):
        yield from nodes(children.apply(i))


def sort_metrics(plan):
    """The sort operators' metrics, summed by name, and the operator names that ran."""
    sums, names = {}, []
    for n in nodes(plan):
        names.append(n.nodeName())
        if "Sort" not in n.nodeName() or "SortMergeJoin" in n.nodeName() \
                or "SortAggregate" in n.nodeName():
            continue
        m = conv.asJava(n.metrics())
        for k in m.keySet().toArray():
            sums[n.nodeName() + "." + k] = sums.get(n.nodeName() + "." + k, 0) + m.get(k).value()
    return sums, names


def order_checksum(sql):
    """An order-sensitive checksum of a query's rows, whatever their partitioning: each row's hash
    combined with its global position (the partitions' row counts give each one's offset)."""
    base = spark.sql(sql).selectExpr(
        "xxhash64(*) AS h", "spark_partition_id() AS p", "monotonically_increasing_id() AS m")
    base = base.cache()
    counts = sorted((r[0], r[1]) for r in base.groupBy("p").count().collect())
    offsets, at = [], 0
    for p, n in counts:
        offsets.append("%d, %dL" % (p, at))
        at += n
    row = base.selectExpr(
        "bit_xor(xxhash64(h, element_at(map(%s), p) + m - shiftleft(CAST(p AS BIGINT), 33)))"
        % ", ".join(offsets), "count(*)").collect()[0]
    base.unpersist()
    return [str(row[0]), str(row[1])]


def run(q):
    title, sql, kind = QUERIES[q]
    t0 = time.perf_counter()
    if kind == "write":
        # into a Parquet table: the write's physical plan then holds the query's (a directory
        # insert runs the query as a separate execution, out of reach)
        df = spark.sql("INSERT OVERWRITE TABLE out_%s %s" % (q, sql))
        plan = df._jdf.queryExecution().executedPlan()
        result = None
    elif kind == "collect":
        df = spark.sql(sql)
        result = [tuple(str(v) for v in r) for r in df.collect()]
        plan = df._jdf.queryExecution().executedPlan()
    else:  # the window's rows, folded into one order-sensitive value by the engine
        df = spark.sql("SELECT bit_xor(xxhash64(l_orderkey, l_linenumber, rn)) AS h FROM (%s)" % sql)
        result = [tuple(str(v) for v in r) for r in df.collect()]
        plan = df._jdf.queryExecution().executedPlan()
    wall = time.perf_counter() - t0
    metrics, names = sort_metrics(plan)
    line = {"engine": engine, "query": q, "wall": round(wall, 3), "metrics": metrics,
            "operators": sorted(set(names))}
    if checksum == "1":
        if kind == "write":
            line["checksum"] = order_checksum(sql)
        else:
            line["checksum"] = result
    print("RESULT " + json.dumps(line), flush=True)


for q in queries:
    run(q)
spark.stop()
