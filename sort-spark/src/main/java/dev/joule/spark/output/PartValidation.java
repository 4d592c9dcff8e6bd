package dev.joule.spark.output;

import dev.joule.core.valsort.RecordChecksum;
import dev.joule.core.valsort.SummaryCombiner;
import dev.joule.core.valsort.ValsortException;
import dev.joule.core.valsort.ValsortSummary;
import dev.joule.spark.JobValidationException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/**
 * The driver's check of the whole output before anything is published: every partition reported
 * once, each part in order, each part's last key at most the next non-empty part's first key, the
 * record count and the checksum (sum of CRC-32s) equal to what the map tasks read. For gensort's
 * layout it also combines the parts' valsort summaries exactly as {@code valsort -s} does, so the
 * verdict printed is the one {@code joule valsort -s} will give. Stateless.
 */
public final class PartValidation {
  private PartValidation() {}

  /** The checked numbers of the whole output. */
  public record Verdict(long records, String checksum, long duplicates, ValsortSummary valsort) {}

  /**
   * Checks {@code parts} (indexed by partition) against the input's {@code records} and {@code
   * checksum}.
   *
   * @throws JobValidationException describing the first disagreement
   */
  public static Verdict check(
      List<PartResult> parts, int partitions, long records, RecordChecksum checksum)
      throws JobValidationException {
    if (parts.size() != partitions) {
      throw new JobValidationException(
          "expected " + partitions + " parts, got " + parts.size() + "; nothing was published");
    }
    long n = 0;
    long duplicates = 0;
    RecordChecksum sum = new RecordChecksum();
    byte[] last = null;
    int lastPart = -1;
    SummaryCombiner combiner = new SummaryCombiner();
    boolean valsort = false;
    for (int p = 0; p < partitions; p++) {
      PartResult r = parts.get(p);
      if (r.partition() != p) {
        throw new JobValidationException("part " + p + " is missing; nothing was published");
      }
      if (r.unordered() != 0) {
        throw new JobValidationException(
            "part " + p + " has " + r.unordered() + " records out of order; nothing was published");
      }
      n += r.records();
      duplicates += r.duplicates();
      sum.add(RecordChecksum.of(r.checksumHi(), r.checksumLo()));
      if (r.records() > 0) {
        if (last != null) {
          int cmp = Arrays.compareUnsigned(last, r.firstKey());
          if (cmp > 0) {
            throw new JobValidationException(
                "the last key of part "
                    + lastPart
                    + " ("
                    + HexFormat.of().formatHex(last)
                    + ") is above the first key of part "
                    + p
                    + " ("
                    + HexFormat.of().formatHex(r.firstKey())
                    + "); nothing was published");
          }
          if (cmp == 0) {
            duplicates++;
          }
        }
        last = r.lastKey();
        lastPart = p;
      }
      if (r.summary() != null) {
        combiner.add(ValsortSummary.readFrom(ByteBuffer.wrap(r.summary())));
        valsort = true;
      }
    }
    if (n != records || !sum.equals(checksum)) {
      throw new JobValidationException(
          "the input has "
              + records
              + " records with checksum "
              + checksum.toHex()
              + ", the parts have "
              + n
              + " with checksum "
              + sum.toHex()
              + "; nothing was published");
    }
    ValsortSummary combined = null;
    if (valsort) {
      try {
        combined = combiner.result();
      } catch (ValsortException e) {
        throw new IllegalStateException(e);
      }
      if (!combined.isOrdered() || combined.recordCount().lo() != records) {
        throw new JobValidationException(
            "valsort -s over the parts' summaries: "
                + String.join("; ", combined.reportLines())
                + "; nothing was published");
      }
    }
    return new Verdict(n, sum.toHex(), duplicates, combined);
  }
}
