package dev.joule.io.report;

import java.util.List;

/**
 * What a sort did, returned by {@code ExternalSorter.sort}: per phase wall and CPU time, bytes,
 * runs and fan-in; the totals; peak memory; and the valsort numbers of input and output (the sort
 * validates itself, so these always agree in a report that exists).
 *
 * <p>Immutable.
 *
 * @param records records sorted
 * @param bytes input bytes sorted
 * @param threads worker threads used
 * @param stripes temp directories used
 * @param directIo whether the input and temp files were read with O_DIRECT
 * @param runs sorted runs written by run formation (0 for a one-pass sort)
 * @param mergePasses merge passes over the data, the final one included (0 for a one-pass sort)
 * @param fanIn the widest merge
 * @param peakMemoryBytes the most memory counted against the budget the sort held at once (off-heap
 *     arenas and buffers, and its indexes)
 * @param phases one entry per phase, in order
 * @param input valsort numbers of the input
 * @param output valsort numbers of the output
 * @param devices one entry per temp directory, in configuration order (empty for a sort that wrote
 *     no temp file)
 * @param timeline the sort over time ({@link Timeline#NONE} when it was not sampled)
 * @param prefetch how the merges' prefetch kept ahead ({@link PrefetchReport#NONE} without a merge)
 * @param compression what compressing the temp runs did ({@link CompressionReport#NONE} without
 *     temp runs)
 */
public record SortReport(
    long records,
    long bytes,
    int threads,
    int stripes,
    boolean directIo,
    int runs,
    int mergePasses,
    int fanIn,
    long peakMemoryBytes,
    List<PhaseReport> phases,
    DataSummary input,
    DataSummary output,
    List<DeviceReport> devices,
    Timeline timeline,
    PrefetchReport prefetch,
    CompressionReport compression) {

  /** Copies the lists. */
  public SortReport {
    phases = List.copyOf(phases);
    devices = List.copyOf(devices);
    java.util.Objects.requireNonNull(timeline, "timeline");
    java.util.Objects.requireNonNull(prefetch, "prefetch");
    java.util.Objects.requireNonNull(compression, "compression");
  }

  /** A report without a timeline. */
  public SortReport(
      long records,
      long bytes,
      int threads,
      int stripes,
      boolean directIo,
      int runs,
      int mergePasses,
      int fanIn,
      long peakMemoryBytes,
      List<PhaseReport> phases,
      DataSummary input,
      DataSummary output,
      List<DeviceReport> devices) {
    this(
        records,
        bytes,
        threads,
        stripes,
        directIo,
        runs,
        mergePasses,
        fanIn,
        peakMemoryBytes,
        phases,
        input,
        output,
        devices,
        Timeline.NONE,
        PrefetchReport.NONE,
        CompressionReport.NONE);
  }

  /** A report without per-device figures. */
  public SortReport(
      long records,
      long bytes,
      int threads,
      int stripes,
      boolean directIo,
      int runs,
      int mergePasses,
      int fanIn,
      long peakMemoryBytes,
      List<PhaseReport> phases,
      DataSummary input,
      DataSummary output) {
    this(
        records,
        bytes,
        threads,
        stripes,
        directIo,
        runs,
        mergePasses,
        fanIn,
        peakMemoryBytes,
        phases,
        input,
        output,
        List.of(),
        Timeline.NONE,
        PrefetchReport.NONE,
        CompressionReport.NONE);
  }

  /** Wall time of all phases. */
  public long wallNanos() {
    return phases.stream().mapToLong(PhaseReport::wallNanos).sum();
  }

  /** CPU time of all phases. */
  public long cpuNanos() {
    return phases.stream().mapToLong(PhaseReport::cpuNanos).sum();
  }

  /** The report as a JSON object (what {@code joule sort --report-json} writes). */
  public String toJson() {
    JsonWriter w = new JsonWriter().beginObject();
    w.field("records", records)
        .field("bytes", bytes)
        .field("threads", threads)
        .field("stripes", stripes)
        .field("directIo", directIo)
        .field("runs", runs)
        .field("mergePasses", mergePasses)
        .field("fanIn", fanIn)
        .field("peakMemoryBytes", peakMemoryBytes)
        .field("wallSeconds", wallNanos() / 1e9)
        .field("cpuSeconds", cpuNanos() / 1e9)
        .beginArray("phases");
    for (PhaseReport p : phases) {
      p.appendJson(w);
    }
    w.endArray();
    input.appendJson(w, "input");
    output.appendJson(w, "output");
    w.beginArray("devices");
    for (DeviceReport d : devices) {
      d.appendJson(w);
    }
    w.endArray();
    timeline.appendJson(w);
    prefetch.appendJson(w);
    compression.appendJson(w);
    return w.endObject().toString();
  }
}
