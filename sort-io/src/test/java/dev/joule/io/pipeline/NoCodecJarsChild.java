package dev.joule.io.pipeline;

import dev.joule.io.config.DataSize;
import dev.joule.io.config.SortConfig;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A child JVM for {@link NoCodecJarsTest}: 200,000 pairs through a pair session at 8 MiB with temp
 * runs in {@code args[0]} (compression auto, the default, which without lz4-java on the class path
 * keeps every run raw), random keys from seed {@code args[1]}; checks the keys come back in order
 * (against a sort of the same keys with {@link Arrays#compareUnsigned}) and prints {@code sorted N
 * runs R}, or exits 1 naming the first difference.
 */
public final class NoCodecJarsChild {
  private NoCodecJarsChild() {}

  public static void main(String[] args) throws IOException {
    SortConfig c =
        SortConfig.builder()
            .memoryBudget(DataSize.ofMiB(8))
            .threads(2)
            .tempDirs(List.of(Path.of(args[0])))
            .build();
    SplittableRandom r = new SplittableRandom(Long.parseLong(args[1]));
    List<byte[]> keys = new ArrayList<>();
    int runs;
    List<byte[]> got = new ArrayList<>();
    try (PairSession s = ExternalSorter.openPairs(c)) {
      byte[] value = new byte[64];
      for (int i = 0; i < 200_000; i++) {
        byte[] k = new byte[4 + r.nextInt(12)];
        r.nextBytes(k);
        keys.add(k);
        s.add(ByteBuffer.wrap(k), ByteBuffer.wrap(value));
      }
      runs = s.spilledRuns();
      try (RecordCursor cur = s.finish()) {
        while (cur.next()) {
          got.add(SortSessionTest.copy(cur.key()));
        }
      }
    }
    keys.sort(Arrays::compareUnsigned);
    for (int i = 0; i < keys.size(); i++) {
      if (i >= got.size() || !Arrays.equals(keys.get(i), got.get(i))) {
        System.out.println("key " + i + " differs (" + got.size() + " keys back)");
        System.exit(1);
      }
    }
    if (runs < 2 || got.size() != keys.size()) {
      System.out.println("runs " + runs + ", keys back " + got.size());
      System.exit(1);
    }
    System.out.println("sorted " + got.size() + " runs " + runs);
  }
}
