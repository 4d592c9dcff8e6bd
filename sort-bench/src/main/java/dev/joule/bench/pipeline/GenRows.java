package dev.joule.bench.pipeline;

import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;

/**
 * Writes length-prefixed rows (4-byte big-endian length, then the row) of uniformly random length
 * MIN..MAX and random bytes, seeded, until the file holds at least BYTES: the variable-length input
 * of {@code scripts/race-formats.sh}.
 *
 * <pre>
 * java -cp sort-bench/target/benchmarks.jar dev.joule.bench.pipeline.GenRows OUT BYTES [MIN MAX [SEED]]
 * </pre>
 */
public final class GenRows {
  private GenRows() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 2 && args.length != 4 && args.length != 5) {
      System.err.println("usage: GenRows OUT BYTES [MIN MAX [SEED]]");
      System.exit(2);
    }
    long target = Long.parseLong(args[1]);
    int min = args.length > 2 ? Integer.parseInt(args[2]) : 10;
    int max = args.length > 2 ? Integer.parseInt(args[3]) : 200;
    long seed = args.length > 4 ? Long.parseLong(args[4]) : 1;
    if (min < 0 || max < min) {
      throw new IllegalArgumentException("row lengths " + min + ".." + max);
    }
    SplittableRandom r = new SplittableRandom(seed);
    byte[] row = new byte[max];
    long bytes = 0;
    long rows = 0;
    try (DataOutputStream o =
        new DataOutputStream(
            new BufferedOutputStream(Files.newOutputStream(Path.of(args[0])), 1 << 20))) {
      while (bytes < target) {
        int len = min + r.nextInt(max - min + 1);
        r.nextBytes(row);
        o.writeInt(len);
        o.write(row, 0, len);
        bytes += 4 + len;
        rows++;
      }
    }
    System.out.println(rows + " rows, " + bytes + " bytes, lengths " + min + ".." + max);
  }
}
