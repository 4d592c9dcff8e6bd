package dev.joule.spark.input;

import dev.joule.spark.JobIOException;
import dev.joule.spark.partition.KeySample;
import dev.joule.spark.record.OrdinalRecordLayout;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;

/**
 * Samples sort keys (key and ordinal) from one split: the wanted number of records, read as blocks
 * of up to {@value #RUN} consecutive records at evenly spaced positions across the split
 * (positioned reads, a few KB each). Blocks rather than single records keep the reads few; many
 * spread blocks rather than TeraSort's 10 contiguous slices keep an input that is already sorted,
 * or clustered, from yielding splitters that all come from a few regions. The positions are fixed,
 * not random, so the same input always gives the same splitters and the same parts. A split asked
 * for at least all its records is read completely. Stateless.
 */
public final class SplitSampler {
  /** Consecutive records per sampled block: 6.4 KB of gensort records, two pages. */
  public static final int RUN = 64;

  private static final VarHandle LONG_BE =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  private SplitSampler() {}

  /**
   * Reads {@code wanted} records of {@code split} (all if it has fewer) and returns their sort
   * keys, each weighted by the records it stands for; null when {@code wanted} is 0.
   */
  public static KeySample sample(
      InputSplit split, OrdinalRecordLayout layout, long wanted, Configuration conf)
      throws JobIOException {
    long n = split.records();
    long take = Math.min(wanted, n);
    if (take <= 0) {
      return null;
    }
    int rs = layout.recordSize();
    int kl = layout.keyLength();
    int sk = layout.sortKeyLength();
    byte[] keys = new byte[Math.toIntExact(take * sk)];
    long blocks = (take + RUN - 1) / RUN;
    byte[] buf = new byte[(int) Math.min(take, RUN) * rs];
    Path p = new Path(split.path());
    int got = 0;
    try (FSDataInputStream in = HadoopFiles.of(p, conf).open(p)) {
      for (long b = 0; b < blocks; b++) {
        int count = (int) Math.min(RUN, take - b * RUN);
        // evenly spaced block starts; a complete sample (take == n) reads the split in order
        long start = take == n ? b * RUN : Math.min(b * n / blocks, n - count);
        in.readFully((split.firstRecord() + start) * rs, buf, 0, count * rs);
        for (int r = 0; r < count; r++, got++) {
          System.arraycopy(buf, r * rs + layout.keyOffset(), keys, got * sk, kl);
          LONG_BE.set(keys, got * sk + kl, split.firstOrdinal() + start + r);
        }
      }
    } catch (IOException e) {
      throw JobIOException.wrap("read", split.path(), e);
    }
    return new KeySample(sk, keys, (double) n / take);
  }
}
