#!/usr/bin/env python3
"""Sorts a file of CRLF-terminated lines (an ASCII gensort file) with DuckDB, as a peer in the races.

    duckdb-sort.py IN OUT --memory 256m --threads 2 --temp DIR

One query, `COPY (SELECT line FROM read_csv(IN, ...) ORDER BY line) TO OUT`: each line is one VARCHAR
column (no delimiter, quote or escape character occurs in gensort records), read and written with
CRLF line ends, ordered by DuckDB's default binary collation (byte order, like LC_ALL=C). The
output is byte-identical to `LC_ALL=C sort` of the same gensort file, which the race scripts check.
DuckDB's memory_limit is the budget, its temp_directory the spill directory; insertion order is not
preserved (a sort does not need it). Exits 2 on bad arguments, 1 if DuckDB fails.
"""
import argparse
import sys


def main():
    p = argparse.ArgumentParser(description="Sort CRLF lines with DuckDB (a race peer).")
    p.add_argument("input")
    p.add_argument("output")
    p.add_argument("--memory", required=True, help="DuckDB memory_limit, e.g. 256m")
    p.add_argument("--threads", type=int, required=True)
    p.add_argument("--temp", required=True, help="DuckDB temp_directory for spills")
    a = p.parse_args()
    try:
        import duckdb
    except ImportError:
        print("duckdb-sort: the duckdb module is missing (pip install duckdb)", file=sys.stderr)
        return 2
    con = duckdb.connect()
    con.execute(f"SET threads = {a.threads}")
    con.execute(f"SET memory_limit = '{a.memory}'")
    con.execute("SET temp_directory = ?", [a.temp])
    con.execute("SET preserve_insertion_order = false")
    con.execute(
        "COPY (SELECT line FROM read_csv(?, columns = {'line': 'VARCHAR'}, delim = '\t',"
        " quote = '', escape = '', header = false, new_line = '\\r\\n', strict_mode = false,"
        " auto_detect = false) ORDER BY line) TO '"
        + a.output.replace("'", "''")
        + "' (FORMAT csv, header false, quote '', escape '', delimiter '\t', new_line '\\r\\n')",
        [a.input],
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
