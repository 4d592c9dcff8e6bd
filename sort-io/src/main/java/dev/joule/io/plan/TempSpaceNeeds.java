package dev.joule.io.plan;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * What a plan needs of its temp stripes, and what they have: the temp bytes at the sort's peak on
 * each stripe (every run, round-robin, plus the widest intermediate pass's output) and each
 * stripe's usable space now, for {@code --explain} and the check before a sort.
 *
 * <p>Stateless.
 */
final class TempSpaceNeeds {
  private TempSpaceNeeds() {}

  /**
   * Temp bytes a two-pass sort of {@code inputBytes} in {@code runs} runs of {@code tempTransfer}
   * blocks needs at its peak on each of {@code stripes} stripes (runs round-robin, plus one pass's
   * output).
   */
  static long perStripe(long inputBytes, int runs, int tempTransfer, MergePlan plan, int stripes) {
    // The runs hold entries, not records: a keyed text sort's normalized keys made the 6e6-line
    // CSV's runs 1.65 times its 245 MB, which counting the input alone left out.
    long total =
        Math.max(inputBytes, plan.runVolume())
            + (long) runs * 2 * tempTransfer
            + intermediatePeak(plan);
    return (total + stripes - 1) / stripes;
  }

  private static long intermediatePeak(MergePlan plan) {
    long peak = 0;
    for (MergePlan.Pass p : plan.passes()) {
      if (!p.isFinal()) {
        peak = Math.max(peak, p.volumeWritten());
      }
    }
    return peak;
  }

  /** Usable bytes on each stripe's file system now (-1 where it cannot be read). */
  static long[] usable(List<Path> stripes) {
    long[] u = new long[stripes.size()];
    for (int i = 0; i < u.length; i++) {
      try {
        u[i] = Files.getFileStore(stripes.get(i)).getUsableSpace();
      } catch (IOException e) {
        u[i] = -1;
      }
    }
    return u;
  }
}
