// The floor of a sort in a glibc locale: strxfrm_l of every line of a file once, on T threads
// (each transforms its share of the lines into a scratch buffer), timed from outside.
//
//   cc -O2 -o xfrm sort-bench/scripts/locale-floor/xfrm.c -lpthread
//   LOCPATH=... /usr/bin/time ./xfrm FILE THREADS en_US.UTF-8
//
// Prints the transforms' total length against the input's. Lines up to 64 KiB.
#define _GNU_SOURCE
#include <locale.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>
static char *data; static size_t size; static locale_t loc; static int T;
typedef struct { size_t from, to; size_t out; } Part;
static void *run(void *arg) {
  Part *p = arg; char line[65536]; char *dst = malloc(1 << 20); size_t out = 0;
  size_t i = p->from;
  while (i < p->to) {
    char *nl = memchr(data + i, '\n', p->to - i); size_t n = nl ? (size_t)(nl - (data + i)) : p->to - i;
    size_t m = n < sizeof line ? n : sizeof line - 1; // longer lines: their first 64 KiB
    memcpy(line, data + i, m); line[m] = 0;
    out += strxfrm_l(dst, line, 1 << 20, loc);
    i += n + 1;
  }
  p->out = out; free(dst); return NULL;
}
int main(int argc, char **argv) {
  T = atoi(argv[2]);
  int fd = open(argv[1], O_RDONLY); struct stat st; fstat(fd, &st); size = st.st_size;
  data = mmap(NULL, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
  loc = newlocale(LC_COLLATE_MASK, argv[3], (locale_t)0);
  if (!loc) { perror("newlocale"); return 2; }
  Part parts[16]; pthread_t th[16]; size_t at = 0;
  for (int t = 0; t < T; t++) {
    size_t end = t == T - 1 ? size : size * (t + 1) / T;
    while (end < size && data[end - 1] != '\n') end++;
    parts[t].from = at; parts[t].to = end; at = end;
    pthread_create(&th[t], NULL, run, &parts[t]);
  }
  size_t out = 0;
  for (int t = 0; t < T; t++) { pthread_join(th[t], NULL); out += parts[t].out; }
  printf("transform bytes %zu (%.2f x input)\n", out, (double)out / size);
  return 0;
}
