package dev.joule.spark;

import dev.joule.spark.output.PartValidation;
import java.util.List;
import java.util.Locale;

/**
 * What a {@link SparkFileSort} did: the published output, the validated totals and where the time
 * went.
 *
 * @param output the output directory (qualified)
 * @param engine who sorted the partitions
 * @param inputFiles input files read
 * @param partitions parts written
 * @param sampledKeys keys sampled for the splitters
 * @param verdict the validated totals (and the valsort summary for gensort's layout)
 * @param planSeconds checking the inputs and the output, driver only
 * @param sampleSeconds the sampling job and the splitters
 * @param sortSeconds the sort job (map, shuffle, sort, write)
 * @param commitSeconds validation and publication
 * @param largestPart records in the largest part
 * @param writeTaskSeconds the reduce tasks' time writing parts, summed over the tasks
 * @param syncTaskSeconds the part of it spent in {@code hsync}, summed over the tasks
 * @param stages Spark's per-stage figures
 */
public record FileSortResult(
    String output,
    FileSortSpec.Engine engine,
    int inputFiles,
    int partitions,
    long sampledKeys,
    PartValidation.Verdict verdict,
    double planSeconds,
    double sampleSeconds,
    double sortSeconds,
    double commitSeconds,
    long largestPart,
    double writeTaskSeconds,
    double syncTaskSeconds,
    List<JobMetrics.Stage> stages) {

  /** The report lines printed by {@code joule-spark sort}. */
  public List<String> reportLines() {
    List<String> lines = new java.util.ArrayList<>();
    lines.add(
        String.format(
            Locale.ROOT,
            "sorted %d records from %d input file(s) into %d parts of %s with the %s engine",
            verdict.records(),
            inputFiles,
            partitions,
            output,
            engine.name().toLowerCase(Locale.ROOT)));
    lines.add(
        String.format(
            Locale.ROOT,
            "time: plan %.2f s, sample %.2f s (%d keys), sort %.2f s, validate+commit %.2f s",
            planSeconds,
            sampleSeconds,
            sampledKeys,
            sortSeconds,
            commitSeconds));
    double mean = (double) verdict.records() / partitions;
    lines.add(
        String.format(
            Locale.ROOT,
            "parts: largest %d records (%+.1f %% against the mean); writing them %.2f task-s, of"
                + " which hsync %.2f",
            largestPart,
            mean == 0 ? 0 : 100 * (largestPart - mean) / mean,
            writeTaskSeconds,
            syncTaskSeconds));
    for (JobMetrics.Stage s : stages) {
      lines.add("stage " + s.describe());
    }
    if (verdict.valsort() != null) {
      lines.add("valsort -s of the parts: " + String.join(", ", verdict.valsort().reportLines()));
    } else {
      lines.add(
          "validated: "
              + verdict.records()
              + " records in order, checksum "
              + verdict.checksum()
              + ", duplicate keys "
              + verdict.duplicates());
    }
    return lines;
  }
}
