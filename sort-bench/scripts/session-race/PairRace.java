import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * One contestant of the embedding race (issue 27; sort-bench/README.md, "The embedding session"):
 * the same seeded key/value pairs are made in this JVM, sorted by the unsigned bytes of their keys
 * through joule's pair session or through Apache Lucene's OfflineSorter, and read back in order.
 * Run by race-session-lucene.sh, one JVM per contestant and round; compiled against both
 * libraries by that script (Lucene 10 needs JDK 21+, so the race runs on JDK 25).
 *
 * <pre>
 *   java -cp CP PairRace MODE PAIRS SEED BUDGET_MIB TEMP_DIR [OPTION=VALUE...]
 *   MODE: joule | lucene | none (make and hash the pairs only: the JVM's and the generator's share)
 *   options: lucene.threads=2 lucene.maxTemp=10 lucene.partitionsInRam=2 joule.validate=true
 *            joule.threads=2 joule.compress=auto|off|lz4|zstd[:LEVEL] joule.mergeAhead=true|false
 *            (default: the build's)
 * </pre>
 *
 * <p>Pairs: keys of 4-64 bytes, about three quarters of them starting with one of 64 shared
 * prefixes of 8-48 bytes (long common prefixes), the rest random; values of 0-500 random bytes.
 * Equal keys are possible and their order is not part of the contract (Lucene's sort is not
 * stable), so the output is checked by two hashes both contestants must agree on: one over the
 * sequence of keys (order-sensitive; equal keys are equal bytes) and one over the multiset of
 * pairs (order-free), besides the count and the key order itself.
 *
 * <p>Prints one line: {@code mode=... pairs=... bytes=... seconds=... keyseq=... pairset=...
 * cpu=... hwm_kib=...}: seconds from the first pair made to the last one read back (JVM start
 * excluded, the same for both), the process CPU time and the peak resident set (VmHWM).
 */
public final class PairRace {
  private static final int PREFIXES = 64;
  private static final java.lang.invoke.VarHandle LONGS =
      java.lang.invoke.MethodHandles.byteArrayViewVarHandle(
          long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);

  public static void main(String[] args) throws Exception {
    String mode = args[0];
    long pairs = Long.parseLong(args[1]);
    long seed = Long.parseLong(args[2]);
    long budget = Long.parseLong(args[3]) << 20;
    Path temp = Path.of(args[4]);
    java.util.Map<String, String> opts = new java.util.HashMap<>();
    for (int i = 5; i < args.length; i++) {
      int eq = args[i].indexOf('=');
      opts.put(args[i].substring(0, eq), args[i].substring(eq + 1));
    }
    Files.createDirectories(temp);
    Generator gen = new Generator(seed);
    Check check = new Check();
    long t0 = System.nanoTime();
    switch (mode) {
      case "joule" -> joule(gen, pairs, budget, temp, opts, check);
      case "lucene" -> lucene(gen, pairs, budget, temp, opts, check);
      case "none" -> none(gen, pairs, check);
      default -> throw new IllegalArgumentException("mode " + mode);
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    if (check.count != pairs) {
      throw new IllegalStateException("read " + check.count + " pairs of " + pairs);
    }
    long cpu =
        ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
            .getProcessCpuTime();
    System.out.printf(
        Locale.ROOT,
        "mode=%s pairs=%d bytes=%d seconds=%.3f keyseq=%016x pairset=%016x cpu=%.3f hwm_kib=%d%n",
        mode,
        check.count,
        gen.bytes,
        seconds,
        check.keySeq,
        check.pairSet,
        cpu / 1e9,
        hwmKib());
  }

  /** joule's pair session: add every pair, finish, iterate the cursor. */
  private static void joule(
      Generator gen,
      long pairs,
      long budget,
      Path temp,
      java.util.Map<String, String> opts,
      Check check)
      throws IOException {
    dev.joule.io.config.SortConfig.Builder b =
        dev.joule.io.config.SortConfig.builder()
            .memoryBudget(dev.joule.io.config.DataSize.ofBytes(budget))
            .threads(Integer.parseInt(opts.getOrDefault("joule.threads", "2")))
            .tempDirs(List.of(temp));
    JouleOptions.apply(b, opts);
    ByteBuffer key = ByteBuffer.allocate(64);
    ByteBuffer value = ByteBuffer.allocate(512);
    try (var session = dev.joule.io.pipeline.ExternalSorter.openPairs(b.build())) {
      for (long i = 0; i < pairs; i++) {
        gen.next();
        key.clear().put(gen.key, 0, gen.keyLength).flip();
        value.clear().put(gen.value, 0, gen.valueLength).flip();
        session.add(key, value);
      }
      try (var cursor = session.finish()) {
        byte[] k = new byte[64];
        byte[] v = new byte[512];
        while (cursor.next()) {
          ByteBuffer kb = cursor.key();
          ByteBuffer vb = cursor.value();
          int kl = kb.remaining();
          int vl = vb.remaining();
          kb.get(kb.position(), k, 0, kl);
          vb.get(vb.position(), v, 0, vl);
          check.accept(k, 0, kl, v, 0, vl);
        }
      }
    }
  }

  /** Options of the joule session that only newer builds have, set by reflection when present. */
  private static final class JouleOptions {
    static void apply(dev.joule.io.config.SortConfig.Builder b, java.util.Map<String, String> o) {
      setFlag(b, "validate", o.get("joule.validate"));
      setFlag(b, "mergeAhead", o.get("joule.mergeAhead")); // absent: the build's default
      String compress = o.get("joule.compress"); // auto, off, lz4, zstd[:LEVEL]
      if (compress != null) {
        try {
          Class<?> c = Class.forName("dev.joule.io.config.Compression");
          Object policy = c.getMethod("parse", String.class).invoke(null, compress);
          b.getClass().getMethod("compression", c).invoke(b, policy);
        } catch (ReflectiveOperationException e) {
          throw new IllegalArgumentException("this joule build has no SortConfig.compression", e);
        }
      }
    }
  }

  /** Calls the builder's boolean setter {@code name} with {@code value}, unless it is null. */
  private static void setFlag(
      dev.joule.io.config.SortConfig.Builder b, String name, String value) {
    if (value == null) {
      return;
    }
    try {
      b.getClass().getMethod(name, boolean.class).invoke(b, Boolean.parseBoolean(value));
    } catch (ReflectiveOperationException e) {
      throw new IllegalArgumentException("this joule build has no SortConfig." + name, e);
    }
  }

  /**
   * Lucene's OfflineSorter, as a platform would use it: the pairs are written to a temp file of
   * its Directory (key length byte, key, value), sorted by a radix comparator over the key bytes,
   * and read back.
   */
  private static void lucene(
      Generator gen,
      long pairs,
      long budget,
      Path temp,
      java.util.Map<String, String> opts,
      Check check)
      throws Exception {
    int threads = Integer.parseInt(opts.getOrDefault("lucene.threads", "2"));
    int maxTemp = Integer.parseInt(opts.getOrDefault("lucene.maxTemp", "10"));
    int inRam = Integer.parseInt(opts.getOrDefault("lucene.partitionsInRam", "2"));
    org.apache.lucene.util.BytesRefComparator byKey =
        new org.apache.lucene.util.BytesRefComparator(64) {
          @Override
          protected int byteAt(org.apache.lucene.util.BytesRef ref, int i) {
            int kl = ref.bytes[ref.offset] & 0xFF;
            return i < kl ? ref.bytes[ref.offset + 1 + i] & 0xFF : -1;
          }
        };
    ExecutorService exec = threads > 1 ? Executors.newFixedThreadPool(threads) : null;
    try (org.apache.lucene.store.Directory dir =
        org.apache.lucene.store.FSDirectory.open(temp)) {
      org.apache.lucene.util.OfflineSorter sorter =
          new org.apache.lucene.util.OfflineSorter(
              dir,
              "race",
              byKey,
              org.apache.lucene.util.OfflineSorter.BufferSize.megabytes(budget >> 20),
              maxTemp,
              -1,
              exec,
              inRam);
      String input;
      byte[] buf = new byte[1 + 64 + 512];
      try (org.apache.lucene.store.IndexOutput out =
          dir.createTempOutput("race", "input", org.apache.lucene.store.IOContext.DEFAULT)) {
        org.apache.lucene.util.OfflineSorter.ByteSequencesWriter w =
            new org.apache.lucene.util.OfflineSorter.ByteSequencesWriter(out);
        for (long i = 0; i < pairs; i++) {
          gen.next();
          buf[0] = (byte) gen.keyLength;
          System.arraycopy(gen.key, 0, buf, 1, gen.keyLength);
          System.arraycopy(gen.value, 0, buf, 1 + gen.keyLength, gen.valueLength);
          w.write(buf, 0, 1 + gen.keyLength + gen.valueLength);
        }
        org.apache.lucene.codecs.CodecUtil.writeFooter(out);
        input = out.getName();
      }
      String sorted = sorter.sort(input);
      try (org.apache.lucene.store.ChecksumIndexInput in =
              dir.openChecksumInput(sorted);
          org.apache.lucene.util.OfflineSorter.ByteSequencesReader r =
              new org.apache.lucene.util.OfflineSorter.ByteSequencesReader(in, sorted)) {
        org.apache.lucene.util.BytesRef b;
        while ((b = r.next()) != null) {
          int kl = b.bytes[b.offset] & 0xFF;
          check.accept(
              b.bytes, b.offset + 1, kl, b.bytes, b.offset + 1 + kl, b.length - 1 - kl);
        }
      }
      dir.deleteFile(input);
      dir.deleteFile(sorted);
    } finally {
      if (exec != null) {
        exec.shutdown();
      }
    }
  }

  /** Makes and hashes the pairs in order of generation (not sorted): the race's fixed share. */
  private static void none(Generator gen, long pairs, Check check) {
    for (long i = 0; i < pairs; i++) {
      gen.next();
      check.pairsOnly(gen.key, 0, gen.keyLength, gen.value, 0, gen.valueLength);
    }
  }

  /** The seeded pairs, one at a time, into reused arrays. */
  private static final class Generator {
    final byte[] key = new byte[64];
    final byte[] value = new byte[512];
    int keyLength;
    int valueLength;
    long bytes;
    private final SplittableRandom random;
    private final byte[][] prefixes = new byte[PREFIXES][];

    Generator(long seed) {
      random = new SplittableRandom(seed);
      for (int i = 0; i < PREFIXES; i++) {
        prefixes[i] = new byte[8 + random.nextInt(41)];
        fill(prefixes[i], 0, prefixes[i].length);
      }
    }

    void next() {
      keyLength = 4 + random.nextInt(61);
      int from = 0;
      if (random.nextInt(4) != 0) {
        byte[] p = prefixes[random.nextInt(PREFIXES)];
        from = Math.min(p.length, keyLength);
        System.arraycopy(p, 0, key, 0, from);
      }
      fill(key, from, keyLength);
      valueLength = random.nextInt(501);
      fill(value, 0, valueLength);
      bytes += keyLength + valueLength;
    }

    private void fill(byte[] b, int from, int to) {
      int i = from;
      for (; i + 8 <= to; i += 8) {
        LONGS.set(b, i, random.nextLong());
      }
      if (i < to) {
        long r = random.nextLong();
        for (; i < to; i++, r >>>= 8) {
          b[i] = (byte) r;
        }
      }
    }
  }

  /** Count, key order, and the two hashes of the output. */
  private static final class Check {
    long count;
    long keySeq = 1;
    long pairSet;
    private final byte[] previous = new byte[64];
    private int previousLength = -1;

    void accept(byte[] k, int ko, int kl, byte[] v, int vo, int vl) {
      if (previousLength >= 0
          && java.util.Arrays.compareUnsigned(previous, 0, previousLength, k, ko, ko + kl) > 0) {
        throw new IllegalStateException("keys out of order at pair " + count);
      }
      System.arraycopy(k, ko, previous, 0, kl);
      previousLength = kl;
      keySeq = keySeq * 0x9E3779B97F4A7C15L + hash(k, ko, kl, 17);
      pairsOnly(k, ko, kl, v, vo, vl);
    }

    void pairsOnly(byte[] k, int ko, int kl, byte[] v, int vo, int vl) {
      pairSet += mix(hash(k, ko, kl, 31) * 31 + hash(v, vo, vl, 37));
      count++;
    }

    private static long hash(byte[] b, int off, int len, long h) {
      int i = off;
      for (int end = off + len - 7; i < end; i += 8) {
        h = (h ^ (long) LONGS.get(b, i)) * 0x9E3779B97F4A7C15L;
        h ^= h >>> 29;
      }
      for (; i < off + len; i++) {
        h = h * 1099511628211L ^ (b[i] & 0xFF);
      }
      return h * 31 + len;
    }

    private static long mix(long z) {
      z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
      z = (z ^ (z >>> 33)) * 0xc4ceb93fe53e8cd5L;
      return z ^ (z >>> 33);
    }
  }

  private static long hwmKib() throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
      if (line.startsWith("VmHWM:")) {
        return Long.parseLong(line.replaceAll("[^0-9]", ""));
      }
    }
    return -1;
  }

  private PairRace() {}
}
