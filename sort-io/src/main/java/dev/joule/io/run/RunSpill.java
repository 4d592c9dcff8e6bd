package dev.joule.io.run;

import dev.joule.core.gather.RecordGatherer;
import dev.joule.core.index.EntryLayout;
import dev.joule.core.index.RecordIndex;
import dev.joule.core.index.RepeatCounts;
import dev.joule.core.valsort.RecordChecksum;
import dev.joule.io.block.BlockFile;
import dev.joule.io.block.BlockPool;
import dev.joule.io.block.FileParts;
import dev.joule.io.block.SortThreads;
import dev.joule.io.config.DirectIoPolicy;
import dev.joule.io.fs.Failures;
import dev.joule.io.stripe.TempSpace;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * One sorted run being written to a new temp file, block-striped over the temp stripes ({@link
 * TempSpace#createStriped}): the file and its {@link RunWriter}, owned together. Every writer of
 * runs goes through here: run formation and the session's spill ({@link #writeSorted}, from a
 * sorted index) and intermediate merges ({@link #create} then {@link #add(ByteBuffer)} batches).
 *
 * <p>{@link #finish()} seals the run and closes the file; {@link #close()} without it (the failure
 * path) stops the writer and closes the file, whose deletion is then the {@link TempSpace}'s job.
 * Memory: the caller's pool buffers. Not thread-safe: one writing thread.
 */
public final class RunSpill implements AutoCloseable {
  private final BlockFile file;
  private final RunWriter writer;

  private RunSpill(BlockFile file, RunWriter writer) {
    this.file = file;
    this.writer = writer;
  }

  /**
   * Starts a run expected to take about {@code bytes} of temp space (entries of {@code layout}, as
   * stored: see {@link RunCompression#expectedStored} for uncompressed ones) in blocks of {@code
   * blockSize} bytes (buffers from {@code pool}, written behind on a thread of {@code threads}), in
   * a new file named {@code kind-NNNNNN}, its blocks compressed as {@code compression} decides.
   */
  public static RunSpill create(
      TempSpace temp,
      String kind,
      EntryLayout layout,
      long bytes,
      int blockSize,
      BlockPool pool,
      DirectIoPolicy direct,
      SortThreads threads,
      RunCompression compression)
      throws IOException {
    long expected = bytes + 2L * blockSize;
    BlockFile f = temp.createStriped(kind, expected, direct, RunLayout.HEADER_SIZE, blockSize);
    try {
      int stripes = f.parts().segments();
      return new RunSpill(
          f, new RunWriter(f, layout, blockSize, pool, stripes, threads, compression));
    } catch (IOException | RuntimeException e) {
      Failures.closeAllAfter(e, Arrays.asList(f));
      throw e;
    }
  }

  /**
   * Writes entries {@code [0, n)} of the sorted {@code index} (about {@code bytes} in all), each
   * with the copies {@code repeats} counts on it, as one run: create, gather, finish, and on
   * failure close everything before rethrowing.
   *
   * @param known the valsort checksum of exactly these records if already known (saves a CRC pass;
   *     see {@link RunWriter#add(RecordIndex, int, int, RecordGatherer, RecordChecksum)}), or null
   */
  public static RunDescriptor writeSorted(
      TempSpace temp,
      int blockSize,
      BlockPool pool,
      DirectIoPolicy direct,
      SortThreads threads,
      RunCompression compression,
      RecordIndex index,
      int n,
      RepeatCounts repeats,
      long bytes,
      RecordGatherer gatherer,
      RecordChecksum known)
      throws IOException {
    RunSpill spill =
        create(
            temp,
            "run",
            index.layout(),
            compression.expectedStored(bytes),
            blockSize,
            pool,
            direct,
            threads,
            compression);
    try {
      spill.writer.add(index, 0, n, repeats, gatherer, known);
      return spill.finish();
    } catch (IOException | RuntimeException e) {
      Failures.closeAllAfter(e, Arrays.asList(spill));
      throw e;
    }
  }

  /**
   * Appends the entries {@code [from, to)} of the sorted {@code index} ({@link
   * RunWriter#add(RecordIndex, int, int, RecordGatherer, RecordChecksum)}); {@code known} is the
   * checksum of exactly these records if the caller has it, or null to compute it.
   */
  public void add(
      RecordIndex index, int from, int to, RecordGatherer gatherer, RecordChecksum known)
      throws IOException {
    writer.add(index, from, to, gatherer, known);
  }

  /** Appends whole entries from {@code entries}' position to its limit (position advances). */
  public void add(ByteBuffer entries) throws IOException {
    writer.add(entries);
  }

  /** Appends one entry of {@code length} bytes at absolute index {@code at} of {@code src}. */
  public void addEntry(ByteBuffer src, int at, int length) throws IOException {
    writer.addEntry(src, at, length, null);
  }

  /** The file's path (its first segment). */
  public java.nio.file.Path path() {
    return file.path();
  }

  /** The file's segments. */
  public FileParts parts() {
    return file.parts();
  }

  /** Writes the last block and the footer, closes the file and returns the run's descriptor. */
  public RunDescriptor finish() throws IOException {
    RunDescriptor d = writer.finish();
    file.close();
    return d;
  }

  /** Stops the writer and closes the file; idempotent (after {@link #finish()}, a no-op). */
  @Override
  public void close() throws IOException {
    Failures.closeAll(Arrays.asList(writer, file));
  }
}
