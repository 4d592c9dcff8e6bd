package dev.joule.io.pipeline;

import dev.joule.io.config.DataSize;
import dev.joule.io.config.SortConfig;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A child JVM for {@link SessionRssTest}: runs {@code args[1]} pair sessions in a row with a budget
 * of {@code args[2]} MiB and temp runs in {@code args[0]}, as a platform's task slot runs sort
 * after sort: most hold 1 to 10^4 pairs, every 50th 17 MB under 16 MiB (it spills and merges).
 * Prints {@code session=N rssKiB=R} after every 100th, and {@code onePairPeak=B} (the peak a
 * one-pair session counted).
 */
public final class SessionRssChild {
  private SessionRssChild() {}

  public static void main(String[] args) throws IOException {
    Path temp = Path.of(args[0]);
    int sessions = Integer.parseInt(args[1]);
    long budgetMiB = Long.parseLong(args[2]);
    SortConfig config =
        SortConfig.builder()
            .memoryBudget(DataSize.ofMiB(budgetMiB))
            .threads(2)
            .tempDirs(List.of(temp))
            .build();
    SortConfig spilling = config.toBuilder().memoryBudget(DataSize.ofMiB(16)).build();
    SplittableRandom r = new SplittableRandom(Long.parseLong(args[3]));
    ByteBuffer key = ByteBuffer.allocate(16);
    ByteBuffer value = ByteBuffer.allocate(256);
    long onePairPeak = -1;
    for (int s = 1; s <= sessions; s++) {
      int pairs = s % 50 == 0 ? 120_000 : s % 3 == 0 ? 1 : s % 3 == 1 ? 1 + r.nextInt(100) : 10_000;
      long check = 0;
      try (PairSession session = ExternalSorter.openPairs(s % 50 == 0 ? spilling : config)) {
        for (int i = 0; i < pairs; i++) {
          key.clear().putLong(0, r.nextLong()).putLong(8, i);
          value.clear().limit(r.nextInt(256));
          session.add(key, value);
        }
        try (RecordCursor c = session.finish()) {
          while (c.next()) {
            check += c.value().remaining();
          }
        }
        if (pairs == 1) {
          onePairPeak = session.peakMemoryBytes();
        }
      }
      if (check < 0) {
        throw new IllegalStateException();
      }
      if (s % 100 == 0) {
        System.out.println("session=" + s + " rssKiB=" + status("VmRSS:"));
      }
    }
    System.out.println("onePairPeak=" + onePairPeak);
  }

  static long status(String field) throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
      if (line.startsWith(field)) {
        return Long.parseLong(line.replaceAll("[^0-9]", ""));
      }
    }
    throw new IllegalStateException(field + " not in /proc/self/status");
  }
}
