package dev.joule.io.plan;

import dev.joule.io.config.Compression;
import java.util.List;
import java.util.Locale;

/** The multi-line account of a {@link SortPlan} that {@code joule sort --explain} prints. */
final class PlanDescription {
  private PlanDescription() {}

  static String of(SortPlan p, List<java.nio.file.Path> stripes) {
    StringBuilder sb = new StringBuilder();
    sb.append(
        String.format(
            Locale.ROOT,
            "input: %d records of %d bytes (%d bytes)%n",
            p.records(),
            p.entryBytes(),
            p.inputBytes()));
    sb.append(
        String.format(
            Locale.ROOT,
            "memory budget: %d bytes; one-pass capacity %d records%n",
            p.budget(),
            p.onePassCapacity()));
    if (p.onePass()) {
      sb.append(
          String.format(
              Locale.ROOT,
              "plan: one pass (in-memory sort), memory %d bytes, threads %d%n",
              p.sortMemory(),
              p.threads()));
    } else {
      sb.append(
          String.format(
              Locale.ROOT,
              "plan: two-pass external sort: %d runs of up to %d records, %d merge pass(es), fan-in"
                  + " %d, threads %d%n",
              p.runs(),
              p.recordsPerRun(),
              p.mergePasses(),
              p.fanIn(),
              p.threads()));
      sb.append(
          String.format(
              Locale.ROOT,
              "memory: run formation %d bytes (three arenas + two indexes + write-behind), merge %d"
                  + " bytes%n",
              p.sortMemory(),
              p.mergeMemory()));
      sb.append(compressionLine(p.compression()));
      if (p.codecScratchBytes() > 0) {
        sb.append(
            String.format(
                Locale.ROOT,
                "memory: %d bytes of the budget reserved for the codec's scratch blocks (%d at"
                    + " most)%n",
                p.codecScratchBytes(),
                SortPlan.codecScratchBuffers(p.threads())));
      }
      long[] usable = p.usableBytesPerStripe();
      for (int i = 0; i < stripes.size(); i++) {
        sb.append(
            String.format(
                Locale.ROOT,
                "temp stripe %d %s: needs about %d bytes, %s usable%n",
                i,
                stripes.get(i),
                p.tempBytesPerStripe(),
                usable[i] < 0 ? "unknown" : Long.toString(usable[i])));
      }
      sb.append(p.mergePlan().describe());
    }
    sb.append(
        String.format(
            Locale.ROOT,
            "transfers: input %d, output %d, temp %d bytes%n",
            p.inputTransfer(),
            p.outputTransfer(),
            p.tempTransfer()));
    for (String n : p.notes()) {
      sb.append("note: ").append(n).append(System.lineSeparator());
    }
    return sb.toString();
  }

  /**
   * How the temp runs will be stored. The stripes' space needs that follow count them raw: how the
   * data compresses is known only once runs are written (then each new run's free-space check
   * counts on the ratio so far, RunCompression.expectedStored).
   */
  private static String compressionLine(Compression c) {
    String how;
    switch (c.mode()) {
      case OFF:
        return String.format(Locale.ROOT, "temp runs: uncompressed (--compress off)%n");
      case AUTO:
        how =
            "lz4 where it pays (--compress auto: the codec's rate and ratio on these blocks against"
                + " the temp devices' measured rate)";
        break;
      case PROGRAM:
        how =
            "every block through "
                + c.program()
                + " (--compress-program; raw where it does not shrink)";
        break;
      default:
        how = "every block " + c + " (raw where it does not shrink)";
    }
    return String.format(
        Locale.ROOT, "temp runs: %s; the space needs below count them uncompressed%n", how);
  }
}
