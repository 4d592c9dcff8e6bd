package dev.joule.spark;

import dev.joule.core.gensort.GensortMode;
import dev.joule.core.gensort.ParallelGensort;
import dev.joule.core.gensort.RecordLayout;
import dev.joule.core.gensort.Uint128;
import dev.joule.testing.RandomRecords;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Test inputs, the independent reference sort of the concatenated inputs (in memory, stable, the
 * comparator written from the definition), and the parts' summaries checked by the reference
 * valsort's rules ({@link ReferenceValsort}).
 */
final class TestData {
  private TestData() {}

  /** gensort records {@code first .. first+count} (binary; {@code skew}: gensort -s). */
  static Path gensort(Path file, long first, long count, boolean skew)
      throws IOException, InterruptedException {
    try (FileChannel ch =
        FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      new ParallelGensort(new GensortMode(RecordLayout.BINARY, skew), 2)
          .run(
              Uint128.ofUnsigned(first),
              count,
              (offset, block) -> {
                long at = offset;
                while (block.hasRemaining()) {
                  at += ch.write(block, at);
                }
              });
    }
    return file;
  }

  /**
   * Random {@code recordSize}-byte records whose key (at {@code keyOffset}, {@code keyLength}
   * bytes) is one of {@code distinctKeys} values (0: all random), seeded.
   */
  static Path randomRecords(
      Path file, long seed, int n, int recordSize, int keyOffset, int keyLength, int distinctKeys)
      throws IOException {
    Random r = new Random(seed);
    byte[] data = new byte[n * recordSize];
    r.nextBytes(data);
    if (distinctKeys > 0) {
      byte[][] keys = new byte[distinctKeys][keyLength];
      for (byte[] k : keys) {
        r.nextBytes(k);
      }
      for (int i = 0; i < n; i++) {
        System.arraycopy(
            keys[r.nextInt(distinctKeys)], 0, data, i * recordSize + keyOffset, keyLength);
      }
    }
    Files.write(file, data, StandardOpenOption.CREATE_NEW);
    return file;
  }

  /** {@code n} gensort-sized records that all have the same key (and differ in their payload). */
  static Path equalKeys(Path file, int n) throws IOException {
    byte[] data = new byte[n * 100];
    for (int i = 0; i < n; i++) {
      byte[] key = "SAME-KEY!!".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
      System.arraycopy(key, 0, data, i * 100, 10);
      ByteBuffer.wrap(data, i * 100 + 10, 90).putLong(i * 0x9E3779B97F4A7C15L).putInt(i);
    }
    Files.write(file, data, StandardOpenOption.CREATE_NEW);
    return file;
  }

  /**
   * The independent reference: the records of {@code inputs}, concatenated in order, sorted in
   * memory by a stable sort whose comparator is the definition: the {@code keyLength} bytes at
   * {@code keyOffset} compared as unsigned bytes, lexicographically; equal keys keep their order.
   */
  static byte[] reference(List<Path> inputs, int recordSize, int keyOffset, int keyLength)
      throws IOException {
    java.io.ByteArrayOutputStream all = new java.io.ByteArrayOutputStream();
    for (Path in : inputs) {
      all.write(Files.readAllBytes(in));
    }
    return RandomRecords.referenceSort(all.toByteArray(), recordSize, keyOffset, keyLength);
  }

  /** The names in an output directory, sorted. */
  static List<String> names(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).sorted().collect(Collectors.toList());
    }
  }

  /** The part files of an output directory, in name order. */
  static List<Path> parts(Path dir) throws IOException {
    List<Path> parts = new ArrayList<>();
    for (String n : names(dir)) {
      if (n.startsWith("part-") && !n.endsWith(".sum")) {
        parts.add(dir.resolve(n));
      }
    }
    return parts;
  }

  /** The parts concatenated in name order. */
  static byte[] concatenatedParts(Path dir) throws IOException {
    java.io.ByteArrayOutputStream all = new java.io.ByteArrayOutputStream();
    for (Path p : parts(dir)) {
      all.write(Files.readAllBytes(p));
    }
    return all.toByteArray();
  }

  /**
   * {@code cat part-*.sum > all.sum; valsort -s all.sum}, by {@link ReferenceValsort}: the part
   * summaries concatenated in name order and folded by the reference's {@code -s} rules; each
   * part's summary must also be that of the part's records.
   */
  static ReferenceValsort valsortS(Path dir) throws IOException {
    java.io.ByteArrayOutputStream all = new java.io.ByteArrayOutputStream();
    for (Path part : parts(dir)) {
      byte[] sum = Files.readAllBytes(Path.of(part + ".sum"));
      byte[] records = Files.readAllBytes(part);
      if (records.length > 0
          && !ReferenceValsort.parse(sum).equals(List.of(ReferenceValsort.of(records)))) {
        throw new AssertionError(
            part
                + ".sum says "
                + ReferenceValsort.parse(sum)
                + ", the part holds "
                + ReferenceValsort.of(records));
      }
      all.write(sum);
    }
    return ReferenceValsort.combine(ReferenceValsort.parse(all.toByteArray()));
  }
}
