// The floor of `sort -k2,2` in a glibc locale: what the C library must do for a key that
// strxfrm_l cannot order alone (docs/decisions/D33: beyond the primary level its transform does not
// always order as strcoll), given the sort's output (SORTED, ordered by -k2,2; the lines of each
// run of the same field 2 are a group that only strcoll of whole lines can order).
//
//   cc -O2 -o ties sort-bench/scripts/locale-floor/ties.c -lm
//   LOCPATH=... ./ties SORTED en_US.UTF-8
//
// Counts the groups of lines with byte-identical field 2 (a lower bound: lines whose fields differ
// only in case or accents tie on the key's primary level too) and the least number of comparisons
// any comparison sort needs to order them, sum of log2(g!); times strcoll_l on random pairs of lines
// of the same group (the pairs such a sort meets; each copied with its NUL, as a caller must) and
// strxfrm_l of every field 2 (the key). Prints the floor in CPU-seconds: comparisons x cost + the
// key transforms, and that over the sort's two threads. Lines up to 64 KiB.
#define _GNU_SOURCE
#include <fcntl.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

// field 2 of GNU's -k2,2 without -b: from the end of field 1 (its leading blanks included) to the
// end of the next run of non-blanks
static void field2(const char *s, size_t n, size_t *from, size_t *to) {
  size_t i = 0;
  while (i < n && (s[i] == ' ' || s[i] == '\t')) i++;
  while (i < n && s[i] != ' ' && s[i] != '\t') i++;
  *from = i;
  while (i < n && (s[i] == ' ' || s[i] == '\t')) i++;
  while (i < n && s[i] != ' ' && s[i] != '\t') i++;
  *to = i;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: ties SORTED LOCALE\n");
    return 2;
  }
  int fd = open(argv[1], O_RDONLY);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0) {
    perror(argv[1]);
    return 2;
  }
  size_t size = st.st_size;
  char *data = mmap(NULL, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
  locale_t loc = newlocale(LC_COLLATE_MASK, argv[2], (locale_t)0);
  if (!loc) {
    perror("newlocale");
    return 2;
  }
  size_t lines = 0, cap = 1 << 20;
  size_t *start = malloc(cap * sizeof *start);
  for (size_t i = 0; i < size;) {
    if (lines == cap) start = realloc(start, (cap *= 2) * sizeof *start);
    start[lines++] = i;
    char *nl = memchr(data + i, '\n', size - i);
    i = nl ? (size_t)(nl - data) + 1 : size;
  }
  char *a = malloc(1 << 16), *b = malloc(1 << 16), *x = malloc(1 << 20);
  size_t *f0 = malloc(lines * sizeof *f0), *f1 = malloc(lines * sizeof *f1);
  for (size_t i = 0; i < lines; i++) {
    field2(data + start[i], (i + 1 < lines ? start[i + 1] - 1 : size) - start[i], &f0[i], &f1[i]);
  }
  // the groups, the least comparisons, and g random pairs of each group of g > 1 lines
  double groups = 0, compares = 0;
  size_t npairs = 0, pcap = 1 << 20;
  size_t *pu = malloc(pcap * sizeof *pu), *pv = malloc(pcap * sizeof *pv);
  unsigned long long seed = 0x9E3779B97F4A7C15ULL;
  for (size_t g0 = 0, i = 1; i <= lines; i++) {
    if (i < lines && f1[i] - f0[i] == f1[g0] - f0[g0] &&
        memcmp(data + start[i] + f0[i], data + start[g0] + f0[g0], f1[i] - f0[i]) == 0) {
      continue;
    }
    size_t g = i - g0;
    groups++;
    compares += lgamma((double)g + 1) / log(2);
    for (size_t k = 0; g > 1 && k < g; k++) {
      seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
      size_t u = g0 + (seed >> 33) % g, v = g0 + (seed >> 13) % g;
      if (u == v) continue;
      if (npairs == pcap) {
        pcap *= 2;
        pu = realloc(pu, pcap * sizeof *pu);
        pv = realloc(pv, pcap * sizeof *pv);
      }
      pu[npairs] = u;
      pv[npairs++] = v;
    }
    g0 = i;
  }
  long sum = 0; // the results are used: strcoll_l is declared pure
  double t = now();
  for (size_t k = 0; k < npairs; k++) {
    size_t u = pu[k], v = pv[k];
    size_t lu = (u + 1 < lines ? start[u + 1] - 1 : size) - start[u];
    size_t lv = (v + 1 < lines ? start[v + 1] - 1 : size) - start[v];
    memcpy(a, data + start[u], lu);
    a[lu] = 0;
    memcpy(b, data + start[v], lv);
    b[lv] = 0;
    sum += strcoll_l(a, b, loc) < 0;
  }
  double coll = now() - t, pairs = (double)npairs;
  t = now();
  for (size_t i = 0; i < lines; i++) {
    size_t m = f1[i] - f0[i];
    memcpy(a, data + start[i] + f0[i], m);
    a[m] = 0;
    sum += strxfrm_l(x, a, 1 << 20, loc);
  }
  double xfrm = now() - t;
  double per = coll / pairs;
  printf("%zu lines, %.0f groups of byte-identical field 2 (%.1f lines each)\n", lines, groups,
         lines / groups);
  printf("least comparisons sum log2(g!): %.3g (%.2f a line); strcoll_l %.0f ns a pair (%.0f pairs)\n",
         compares, compares / lines, per * 1e9, pairs);
  printf("strxfrm_l of field 2: %.2f CPU-s (%.0f ns a line)\n", xfrm, xfrm / lines * 1e9);
  printf("(checksum %ld)\n", sum);
  printf("floor: %.2f CPU-s of strcoll_l + %.2f of strxfrm_l = %.2f CPU-s, %.2f s on 2 threads\n",
         compares * per, xfrm, compares * per + xfrm, (compares * per + xfrm) / 2);
  return 0;
}
