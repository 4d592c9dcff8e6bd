#!/usr/bin/env bash
# Runs coreutils' own sort tests (tests/misc/sort.pl of coreutils 9.1; tests/sort/sort.pl later)
# against GNU sort and joule sort side by side (JouleCoreutils.pm), and exits 1 if joule differs
# from GNU in exit status, standard output or output files on any case that GNU itself passes.
# Not part of CI: it needs a coreutils source tree and starts a JVM per case (about 400 runs).
#
#   src-it/coreutils/run-sort-pl.sh /path/to/coreutils          # the source tree (or its sort.pl)
#   ONLY='^07|obs' src-it/coreutils/run-sort-pl.sh ...           # the cases whose name matches
#   GNU_SORT=/usr/bin/sort JOULE_SORT='/opt/joule/bin/joule sort' ...  # other binaries
set -euo pipefail
here=$(cd -P -- "$(dirname -- "$0")" && pwd -P)
src=${1:?usage: run-sort-pl.sh COREUTILS_SOURCE_DIR_OR_SORT_PL}
if [ -d "$src" ]; then
  for f in "$src/tests/misc/sort.pl" "$src/tests/sort/sort.pl"; do
    [ -f "$f" ] && src=$f && break
  done
fi
[ -f "$src" ] || { echo "no sort.pl under $1" >&2; exit 2; }
export JOULE_SORT=${JOULE_SORT:-"$here/../../joule sort"}
export LC_ALL=C LANG=C LANGUAGE=C
echo "sort.pl: $src; GNU: $(${GNU_SORT:-sort} --version | head -1); joule: $JOULE_SORT"
exec perl -I"$here" -MJouleCoreutils "$src"
