#!/usr/bin/env python3
"""Deterministic text inputs for the races against GNU sort (issue 12's text workloads).

    gen-text.py csv  LINES OUT [--seed S]    id,name,amount,date lines (about 42 bytes each)
    gen-text.py dups LINES OUT [--seed S] [--values V]
                                             LINES lines drawn from about V distinct numbers
    gen-text.py intl LINES OUT [--seed S]    UTF-8 lines of names and words with accents (about
                                             45 bytes each), for sorts in a locale (issue 31)
    gen-text.py words BYTES OUT [--seed S]   lines of 1 to 8 random words of 2 to 12 letters and
                                             digits, up to BYTES bytes (the start-up and streams
                                             races against GNU sort, issue 30, with --seed 30)

csv: `id` is a permutation of 10000001 .. 10000000 + LINES, so that GNU's last-resort comparison
of the whole line does not happen to keep the input order; `name` comes from a pool of 1000 "First Last" names made of
syllables, so every name repeats thousands of times (ties for `-k2,2r`); `amount` is a signed
decimal drawn so that equal amounts are frequent (ties for `-k3,3n`, then for `-k2,2r`, then for
GNU's last-resort whole-line comparison): 40 % have cents within +-999.99, 10 % cents within
+-5000 (-1234.56), 25 % are integers (17, -3), 25 % have one decimal (0.5, -12.5), and a few are
other spellings of equal values (17.00, 0.50, .5, -0; a rare 1e3, which GNU's -n reads as 1);
`date` is YYYY-MM-DD within 2000..2029. 6e6 lines make about 246 MB.

dups: a pool of V numeric spellings (integers, leading zeros, '-' and '+' signs, decimals, -0,
spellings of the same value such as 7, 007, 7.0, +7), each line drawn from it with skewed weights;
for `-u` (whole lines) and `-n` (GNU's numeric order, then the whole line).

intl: "First Last word word ..." in UTF-8: a first and a last name, then 1 to 5 words, separated by
single spaces (so `-k2,2` is the last name). Names and words are made of syllables of which about
one in six carries an accent or is a letter of another Latin alphabet (é è ê ë á à â ä å ã ó ö ø õ
ú ü ñ ç ß æ œ ł ş č ž ð þ); names are capitalized, 5 % of words are capitalized and 2 % upper case,
so that case and accents decide many comparisons; 3 % of the words are digits, 1 % carry an
apostrophe or a hyphen. Pools of 20 000 first names, 100 000 last names and 50 000 words, each
line drawn uniformly, so lines rarely repeat but keys (-k2,2) tie often. 2.3e7 lines make about
1 GB; about 50 CPU-seconds per 10^7 lines.

The output depends only on the arguments and the seed (default 12) for a given Python version;
lines end in '\\n' and contain no NUL, tab or carriage return. Written in blocks of 10^6 lines;
6e6 csv lines take about 7 CPU-seconds, 10^7 dups lines about 3.
"""
import argparse
import math
import random
import sys

BLOCK = 1_000_000
FIRST_ID = 10_000_001
SYLLABLES = ["ka", "lo", "mi", "ne", "ru", "sa", "to", "vi", "an", "el", "or", "un", "be", "da",
             "fi", "go", "ha", "jo", "ke", "li", "ma", "no", "pe", "qu", "ri", "si", "tu", "ze",
             "bar", "den", "fin", "gor", "hal", "kin", "mar", "nor", "sten", "tor", "val", "wyn"]


def csv_pools(rng):
    names = set()
    while len(names) < 1000:  # "First Last"
        first = "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 3)))
        last = "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4)))
        names.add(first.capitalize() + " " + last.capitalize())
    names = sorted(names)
    cents = [f"{v / 100:.2f}" for v in range(-99999, 100000)]            # -999.99 .. 999.99
    wide = [f"{v / 100:.2f}" for v in range(-500000, 500000, 7)]         # -5000.00 .. 4999.97
    ints = [str(v) for v in range(-100, 1001)]                           # -100 .. 1000
    tenths = [f"{v / 10:.1f}" for v in range(-999, 1000)]                # -99.9 .. 99.9
    odd = ["17.00", "0.50", ".5", "-.5", "-0", "0.0", "100.000", "-17.0", "1e3"]
    dates = [f"{y:04d}-{m:02d}-{d:02d}" for y in range(2000, 2030) for m in range(1, 13)
             for d in range(1, 29)]
    return names, (cents, wide, ints, tenths, odd), dates


def gen_csv(lines, out, rng):
    names, amount_pools, dates = csv_pools(rng)
    step = 1_000_003  # ids are a permutation of FIRST_ID .. FIRST_ID + lines - 1: i * step mod lines
    while math.gcd(step, lines) != 1:
        step += 2
    weights = [40, 10, 25, 24.9, 0.1]
    written = 0
    while written < lines:
        n = min(BLOCK, lines - written)
        which = rng.choices(range(len(amount_pools)), weights=weights, k=n)
        amounts = [rng.choice(amount_pools[w]) for w in which]
        ns = rng.choices(names, k=n)
        ds = rng.choices(dates, k=n)
        out.write("".join(f"{FIRST_ID + (written + i) * step % lines},{ns[i]},{amounts[i]},{ds[i]}\n" for i in range(n)))
        written += n


def dups_pool(rng, values):
    pool = set()
    base = rng.sample(range(-5000, 5000), max(1, values // 2))
    spellings = [
        lambda v: str(v),
        lambda v: ("-" if v < 0 else "") + "0" * rng.randint(1, 3) + str(abs(v)),
        lambda v: ("-" if v < 0 else "+") + str(abs(v)),
        lambda v: f"{v}.{rng.randint(0, 99):02d}",
        lambda v: f"{v}.0",
        lambda v: f"{v / 8:g}",
    ]
    for v in base:
        pool.add(str(v))
    while len(pool) < values:
        pool.add(rng.choice(spellings)(rng.choice(base)))
    pool.update(["0", "-0", "+0", "00", "0.0", ".5", "-.5", "7", "007", "7.0", "+7"])
    return sorted(pool)


def gen_dups(lines, out, rng, values):
    pool = dups_pool(rng, values)
    weights = [1.0 / (1 + i % 97) for i in range(len(pool))]  # skewed, some values far more common
    rng.shuffle(weights)
    written = 0
    while written < lines:
        n = min(BLOCK, lines - written)
        out.write("\n".join(rng.choices(pool, weights=weights, k=n)))
        out.write("\n")
        written += n


INTL_PLAIN = ["ka", "lo", "mi", "ne", "ru", "sa", "to", "vi", "an", "el", "or", "un", "be", "da",
              "fi", "go", "ha", "jo", "ke", "li", "ma", "no", "pe", "ri", "si", "tu", "ze", "ber",
              "den", "fin", "gor", "hal", "kin", "mar", "nor", "sten", "tor", "val", "wyn", "st"]
INTL_ACCENTED = ["é", "è", "ê", "ë", "á", "à", "â", "ä", "å", "ã", "ó", "ö", "ø", "õ", "ú", "ü",
                 "ñ", "ç", "ß", "æ", "œ", "ł", "ş", "č", "ž", "ð", "þ", "í", "ï", "ý"]


def intl_syllable(rng):
    s = rng.choice(INTL_PLAIN)
    if rng.random() < 1 / 6:
        i = rng.randrange(len(s))
        s = s[:i] + rng.choice(INTL_ACCENTED) + s[i + 1:]
    return s


def intl_pool(rng, size, lo, hi):
    pool = set()
    while len(pool) < size:
        pool.add("".join(intl_syllable(rng) for _ in range(rng.randint(lo, hi))))
    return sorted(pool)


def intl_words(rng, words, k):
    """k words: 3 % numbers, 1 % with an apostrophe or hyphen, 5 % capitalized, 2 % upper case."""
    picked = rng.choices(words, k=k)
    rolls = [rng.random() for _ in range(k)]
    for i, r in enumerate(rolls):
        if r < 0.11:
            w = picked[i]
            if r < 0.03:
                picked[i] = str(int(r * 3_333_333))
            elif r < 0.04:
                picked[i] = w[:2] + "'-"[int(r * 1000) % 2] + w[2:]
            elif r < 0.09:
                picked[i] = w.capitalize()
            else:
                picked[i] = w.upper()
    return picked


def gen_intl(lines, out, rng):
    firsts = [n.capitalize() for n in intl_pool(rng, 20_000, 2, 3)]
    lasts = [n.capitalize() for n in intl_pool(rng, 100_000, 2, 4)]
    words = intl_pool(rng, 50_000, 1, 3)
    written = 0
    while written < lines:
        n = min(BLOCK, lines - written)
        counts = rng.choices(range(1, 6), k=n)
        ws = intl_words(rng, words, sum(counts))
        fs = rng.choices(firsts, k=n)
        ls = rng.choices(lasts, k=n)
        rows = []
        at = 0
        for i in range(n):
            c = counts[i]
            rows.append(f"{fs[i]} {ls[i]} {' '.join(ws[at:at + c])}\n")
            at += c
        out.write("".join(rows))
        written += n


def gen_words(size, out, rng):
    letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    n = 0
    while n < size:
        line = " ".join("".join(rng.choice(letters) for _ in range(rng.randint(2, 12)))
                        for _ in range(rng.randint(1, 8))) + "\n"
        out.write(line)
        n += len(line)


def main():
    p = argparse.ArgumentParser(description="Deterministic text inputs for the GNU sort races.")
    p.add_argument("kind", choices=["csv", "dups", "intl", "words"])
    p.add_argument("lines", type=lambda s: int(float(s)), help="number of lines (words: bytes)")
    p.add_argument("output")
    p.add_argument("--seed", type=int, default=12)
    p.add_argument("--values", type=int, default=1000, help="dups: distinct values (about)")
    a = p.parse_args()
    rng = random.Random(a.seed)
    encoding = "utf-8" if a.kind == "intl" else "ascii"
    with open(a.output, "w", encoding=encoding, newline="\n", buffering=1 << 22) as out:
        if a.kind == "csv":
            gen_csv(a.lines, out, rng)
        elif a.kind == "intl":
            gen_intl(a.lines, out, rng)
        elif a.kind == "words":
            gen_words(a.lines, out, rng)
        else:
            gen_dups(a.lines, out, rng, a.values)
    return 0


if __name__ == "__main__":
    sys.exit(main())
