"""Summary of a race-spark-sql.sh run: checks that the engines agree (round 1's checksums), then
prints per query and engine the median wall time, sort metrics and the ratio to vanilla Spark."""
import json
import statistics
import sys

rows = []
for line in (l for f in sys.argv[1:] for l in open(f)):
    rnd, load, js = line.split(" ", 2)
    r = json.loads(js)
    r["round"], r["load"] = int(rnd), float(load)
    rows.append(r)

ok = True
for q in sorted({r["query"] for r in rows}):
    sums = {r["engine"]: r["checksum"] for r in rows if r["query"] == q and "checksum" in r}
    if sums and len({json.dumps(v) for v in sums.values()}) != 1:
        ok = False
        print("FAIL: query (%s): the engines' outputs differ: %s" % (q, sums))
if any("checksum" in r for r in rows):
    print("checksums: %s" % ("all engines agree on every query" if ok else "DIFFER"))


ENGINES = ["spark", "joule", "joule-noval", "comet"]


def median(q, e, f):
    v = [f(r) for r in rows if r["query"] == q and r["engine"] == e]
    v = [x for x in v if x is not None]
    return statistics.median(v) if v else None


def metric(*names):
    def f(r):
        s = [v for k, v in r["metrics"].items() if k.split(".")[-1] in names]
        return sum(s) if s else None
    return f


print("%-3s %-11s %8s %7s %12s %13s %12s  %s" % ("q", "engine", "wall s", "x spark", "sort time s",
                                                "joule op s", "spill MB", "loads"))
for q in sorted({r["query"] for r in rows}):
    base = median(q, "spark", lambda r: r["wall"])
    for e in ENGINES:
        w = median(q, e, lambda r: r["wall"])
        if w is None:
            continue
        st = median(q, e, metric("sortTime"))
        if st is None:  # Comet's native sort: elapsed_compute, in ns
            ns = median(q, e, metric("elapsed_compute"))
            st = ns / 1e6 if ns is not None else None
        jt = median(q, e, metric("jouleTime"))
        sp = median(q, e, metric("spillSize"))
        loads = [r["load"] for r in rows if r["query"] == q and r["engine"] == e]
        print("%-3s %-11s %8.2f %7s %12s %13s %12s  %s" % (
            q, e, w, "%.2f" % (base / w) if base else "-",
            "%.2f" % (st / 1000) if st is not None else "-",
            "%.2f" % (jt / 1e9) if jt is not None else "-",
            "%.0f" % (sp / 1e6) if sp is not None else "-",
            ",".join("%.1f" % x for x in loads)))
for e in ENGINES[1:]:
    ops = sorted({o for r in rows if r["engine"] == e for o in r["operators"]})
    if ops:
        print("%s ran: %s" % (e, ", ".join(ops)))
sys.exit(0 if ok else 1)
