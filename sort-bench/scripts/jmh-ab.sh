#!/usr/bin/env bash
# A/B of one JMH benchmark between builds, in one run: the benchmarks jars alternate round by round
# (A, B, A, B...) so that the machine's load falls on both alike, and the medians of the rounds'
# scores are printed side by side per parameter set, with B/A.
#
#   sort-bench/scripts/jmh-ab.sh [--rounds R] --jar NAME=PATH --jar NAME=PATH BENCHMARK [JMH ARGS...]
#
#   --jar NAME=PATH  a benchmarks.jar (sort-bench/target/benchmarks.jar of a build; build an older
#                    commit in a git worktree: git worktree add /tmp/old REV && cd /tmp/old &&
#                    mvn -B -DskipTests package -pl sort-bench -am). Two or more; the first is the
#                    baseline of the ratios.
#   --rounds R       rounds (default 3)
#   JMH ARGS         passed to every run (e.g. -p threads=1 -f 1 -wi 3 -i 5 -w 1s -r 1s)
#
# Every run's CSV result is kept in bench-out/jmh-ab-<time>/ (NAME-ROUND.csv); the score of a run is
# JMH's (the mean of its iterations, in the benchmark's unit). Both builds must have the benchmark
# with the same parameters; a run that fails stops the script.
set -euo pipefail
rounds=3
names=() jars=()
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds=$2; shift 2 ;;
    --jar)
      names+=("${2%%=*}") jars+=("${2#*=}")
      [ -f "${2#*=}" ] || { echo "jmh-ab: no such jar: ${2#*=}" >&2; exit 2; }
      shift 2
      ;;
    -h | --help) sed -n '2,18p' "$0"; exit 0 ;;
    *) break ;;
  esac
done
if [ ${#jars[@]} -lt 2 ] || [ $# -lt 1 ]; then
  echo "usage: jmh-ab.sh [--rounds R] --jar NAME=PATH --jar NAME=PATH BENCHMARK [JMH ARGS...]" >&2
  exit 2
fi
root=$(cd "$(dirname "$0")/../.." && pwd)
out="$root/bench-out/jmh-ab-$(date -u +%Y%m%dT%H%M%S)"
mkdir -p "$out"
echo "jmh-ab: $* ; ${#jars[@]} builds x $rounds rounds; results in $out"
uptime
for r in $(seq "$rounds"); do
  for i in "${!jars[@]}"; do
    echo "== round $r: ${names[$i]}"
    java -jar "${jars[$i]}" "$@" -rf csv -rff "$out/${names[$i]}-$r.csv" > "$out/${names[$i]}-$r.log" 2>&1 ||
      { echo "jmh-ab: ${names[$i]} failed; its log: $out/${names[$i]}-$r.log" >&2; tail -20 "$out/${names[$i]}-$r.log" >&2; exit 1; }
  done
done
uptime
python3 - "$out" "${names[@]}" <<'EOF'
import csv, statistics, sys, os, glob
out, names = sys.argv[1], sys.argv[2:]
scores = {}  # (params) -> name -> [scores]
unit = ""
for n in names:
    for f in sorted(glob.glob(os.path.join(out, n + "-*.csv"))):
        for row in csv.DictReader(open(f)):
            params = tuple((k[len("Param: "):], v) for k, v in row.items() if k.startswith("Param: "))
            key = (row["Benchmark"].rsplit(".", 1)[-1],) + params
            scores.setdefault(key, {}).setdefault(n, []).append(float(row["Score"]))
            unit = row["Unit"]
head = ["benchmark, params"] + [f"{n} ({unit}, median; runs)" for n in names]
head += [f"{n}/{names[0]}" for n in names[1:]]
print("| " + " | ".join(head) + " |")
print("|" + "---|" * len(head))
for key in sorted(scores):
    s = scores[key]
    med = {n: statistics.median(s[n]) for n in names if n in s}
    cells = [key[0] + " " + " ".join(f"{k}={v}" for k, v in key[1:])]
    for n in names:
        cells.append(f"{med[n]:.3f} ({', '.join(f'{x:.3f}' for x in s[n])})" if n in med else "-")
    for n in names[1:]:
        cells.append(f"{med[n] / med[names[0]]:.3f}" if n in med and names[0] in med else "-")
    print("| " + " | ".join(cells) + " |")
EOF
