#!/usr/bin/env python3
"""Sorts a file of lines with DuckDB, as a peer in the races against GNU sort.

    duckdb-sort.py IN OUT --memory 256MiB --threads 2 --temp DIR
                   [--newline crlf|lf] [--order SPEC] [--distinct]

One query, `COPY (SELECT line FROM read_csv(IN, ...) ORDER BY ...) TO OUT`: each line is one VARCHAR
column (the inputs contain no tab, which is the column delimiter, and quoting is off), read and
written with CRLF line ends (an ASCII gensort file, the default) or LF, ordered by DuckDB's default
binary collation (byte order, like LC_ALL=C). --order names GNU sort's ordering, so that the output
is byte-identical to `LC_ALL=C sort` with the same options, which the race scripts check:
  line         (default) whole lines: `sort`
  n            GNU's -n on the whole line, then the whole line: `sort -n`
  csv-k3n-k2r  `sort -t, -k3,3n -k2,2r`: field 3 numeric, field 2 reversed, then the whole line
--distinct keeps one of equal lines (`sort -u` with --order line).
GNU's -n as SQL: leading blanks, an optional '-', digits, an optional '.' and digits, read as an
exact decimal; anything else ('+7', '', '-') counts as 0, as GNU does in the C locale.
DuckDB's memory_limit is the budget, its temp_directory the spill directory; insertion order is not
preserved (a sort does not need it). Exits 2 on bad arguments, 1 if DuckDB fails.
"""
import argparse
import sys


def gnu_numeric(expr):
    """GNU sort's -n value of a string (C locale, no thousands separator) as an SQL expression."""
    return ("COALESCE(TRY_CAST(regexp_extract(" + expr + ", '^[ \\t]*(-?[0-9]*(\\.[0-9]*)?)', 1)"
            " AS DECIMAL(38, 9)), 0)")


ORDERS = {
    "line": "line",
    "n": gnu_numeric("line") + ", line",
    "csv-k3n-k2r": gnu_numeric("split_part(line, ',', 3)") + ", split_part(line, ',', 2) DESC, line",
}


def main():
    p = argparse.ArgumentParser(description="Sort lines with DuckDB (a race peer).")
    p.add_argument("input")
    p.add_argument("output")
    p.add_argument("--memory", required=True, help="DuckDB memory_limit, e.g. 256MiB")
    p.add_argument("--threads", type=int, required=True)
    p.add_argument("--temp", required=True, help="DuckDB temp_directory for spills")
    p.add_argument("--newline", choices=["crlf", "lf"], default="crlf")
    p.add_argument("--order", choices=sorted(ORDERS), default="line")
    p.add_argument("--distinct", action="store_true")
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
    nl = "\\r\\n" if a.newline == "crlf" else "\\n"
    con.execute(
        "COPY (SELECT " + ("DISTINCT " if a.distinct else "") + "line FROM read_csv(?,"
        " columns = {'line': 'VARCHAR'}, delim = '\t', quote = '', escape = '', header = false,"
        f" new_line = '{nl}', strict_mode = false, auto_detect = false) ORDER BY {ORDERS[a.order]})"
        " TO '" + a.output.replace("'", "''")
        + f"' (FORMAT csv, header false, quote '', escape '', delimiter '\t', new_line '{nl}')",
        [a.input],
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
