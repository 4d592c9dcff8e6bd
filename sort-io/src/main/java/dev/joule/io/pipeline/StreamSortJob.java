package dev.joule.io.pipeline;

import dev.joule.io.block.BlockPool;
import dev.joule.io.block.SortThreads;
import dev.joule.io.config.FileKind;
import dev.joule.io.config.SortConfig;
import dev.joule.io.error.SortIOException;
import dev.joule.io.fs.Failures;
import dev.joule.io.input.EntrySpec;
import dev.joule.io.input.StreamRecords;
import dev.joule.io.output.AtomicOutput;
import dev.joule.io.plan.MergePlan;
import dev.joule.io.plan.SortPlan;
import dev.joule.io.report.DataSummary;
import dev.joule.io.report.PhaseClock;
import dev.joule.io.report.PhaseReport;
import dev.joule.io.report.SortReport;
import dev.joule.io.stripe.TempSpace;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One sort of streams ({@link ExternalSorter#sort(List, Path, SortConfig)} and {@link
 * ExternalSorter#sort(List, OutputStream, Path, SortConfig)}): standard input, pipes, or several
 * files read one after another, whose records go into a sort session as they are read, with no copy
 * into a temp file. The session ({@link SessionEngine}) sorts in memory what fits half the budget,
 * else writes runs while the input is still being read; then its cursor yields the records in order
 * (from memory, or from the final merge), and they are written as they come: into the stream at
 * once, or into the output file's temporary, published only after the check.
 *
 * <p><b>Input.</b> Each input is read to its end before the next ({@link StreamRecords}): a last
 * line without its delimiter is a line of its own, as GNU sort reads each file; a line over the
 * format's limit is the error the file sort gives; fixed records must be whole in each input. The
 * inputs are closed when they have been read, or at a failure.
 *
 * <p><b>Temp space.</b> Nothing is created, nor any temp dir looked at, until the session spills: a
 * sort that fits in memory never touches the temp dirs (GNU sort needs {@code -T} only then).
 *
 * <p><b>Check.</b> The cursor checks count, checksum and order against what was read; a mismatch is
 * a {@code SortValidationException} from the last record. The file output is then not published; a
 * stream has already had the records, and the message says so.
 *
 * <p>Used once, by one thread.
 */
final class StreamSortJob {
  /** Bytes of fixed records read per call: whole records, many per add. */
  private static final int FIXED_READ = 1 << 20;

  /** Progress is reported (and cancellation checked) every this many bytes read or written. */
  private static final long PROGRESS_STEP = 4 << 20;

  private final List<SortedInputs.Input> inputs;
  private final SortConfig config;
  private final List<PhaseReport> phases = new ArrayList<>();
  private long bytesRead;
  private long nextProgress = PROGRESS_STEP;

  StreamSortJob(List<SortedInputs.Input> inputs, SortConfig config) {
    this.inputs = List.copyOf(inputs);
    this.config = config;
  }

  /** Where the sorted records go. */
  private interface Target {
    /** Opens the output once all input is read; returns the sink of the framed records. */
    EntrySpec.FramedSink open() throws IOException;

    /** What a failed check calls the output. */
    String name();

    /** What a failed check says of the records the output got (asked when it fails). */
    String outcome();

    /** After the last record passed the check: flushes or publishes. */
    void finish() throws IOException;

    /** Bytes written. */
    long bytes();

    /** Closes what {@link #open} opened (the file target deletes an unpublished temporary). */
    void close() throws IOException;
  }

  /** Sorts into {@code out}, named {@code name} in errors; flushed, not closed. */
  SortReport toStream(OutputStream out, Path name) throws IOException {
    StreamSink sink = new StreamSink(out, name);
    return run(
        new Target() {
          @Override
          public EntrySpec.FramedSink open() {
            return sink;
          }

          @Override
          public String name() {
            return name.toString();
          }

          @Override
          public String outcome() {
            long n = sink.bytesWritten();
            return n == 0
                ? "nothing was written to it"
                : "the " + n + " bytes written to it are not the sorted input";
          }

          @Override
          public void finish() throws IOException {
            sink.flush();
          }

          @Override
          public long bytes() {
            return sink.bytes();
          }

          @Override
          public void close() {}
        });
  }

  /** Sorts into {@code output}, published atomically once checked; it may be an input. */
  SortReport toFile(Path output) throws IOException {
    AtomicOutput.checkDirectory(output);
    SortThreads threads = SortThreads.of(config.threadFactory());
    AtomicOutput[] out = new AtomicOutput[1];
    BlockPool[] pool = new BlockPool[1];
    return run(
        new Target() {
          @Override
          public EntrySpec.FramedSink open() throws IOException {
            // The session holds one chunk or the merge's buffers by now: two small transfers fit
            // beside them (a session's temp transfer is B/128, SessionPlan).
            int transfer =
                Math.min(
                    config.transferSize(FileKind.OUTPUT),
                    dev.joule.io.plan.SessionPlan.of(config).tempTransfer());
            pool[0] = new BlockPool(SortPlan.OUTPUT_POOL_BUFFERS, transfer);
            out[0] =
                AtomicOutput.create(
                    output, config.directIo(), config.notices(), pool[0], 1, threads);
            return EntrySpec.FramedSink.of(out[0].writer());
          }

          @Override
          public String name() {
            return output.toString();
          }

          @Override
          public String outcome() {
            return "nothing was published";
          }

          @Override
          public void finish() throws IOException {
            out[0].commit();
          }

          @Override
          public long bytes() {
            return out[0] == null ? 0 : out[0].writer().position();
          }

          @Override
          public void close() throws IOException {
            Failures.closeAll(java.util.Arrays.asList(out[0], pool[0])); // nulls are skipped
          }
        });
  }

  private SortReport run(Target target) throws IOException {
    PhaseClock clock = new PhaseClock();
    try (SessionEngine engine = new SessionEngine(config, false, false)) {
      try {
        addAll(engine);
      } catch (Throwable e) {
        SortedInputs.closeAllAfter(e, inputs);
        throw e;
      }
      SortedInputs.closeAll(inputs);
      SessionCursor cursor = (SessionCursor) engine.finish();
      SessionStats stats = engine.stats();
      RunStore store = engine.store();
      MergePlan mp = stats.spilledRuns() == 0 ? null : store.mergePlan();
      TempSpace temp = store.openTemp();
      PhaseClock merge = new PhaseClock();
      if (mp != null) {
        String formed = "run formation"; // with the passes before the final one: finish() runs them
        int k = stats.mergePasses();
        if (k > 0) {
          formed += k == 1 ? " and merge pass 1" : " and merge passes 1-" + k;
        }
        phases.add(
            clock.phase(
                formed,
                bytesRead,
                stats.spilledBytes() + stats.mergedBytes(),
                0,
                stats.spilledRuns(),
                stats.mergePasses() > 0 ? mp.fanIn() : 0));
      }
      cursor.describeOutput(target.name(), target::outcome);
      try {
        write(cursor, engine.spec, target);
        target.finish();
      } catch (Throwable e) {
        try {
          target.close();
        } catch (Throwable c) {
          e.addSuppressed(c);
        }
        throw e;
      }
      target.close();
      long records = store.inputRecords();
      DataSummary in = new DataSummary(records, store.inputChecksum().toHex(), -1, false);
      DataSummary out = cursor.summary();
      if (mp == null) {
        phases.add(
            clock.phase("in-memory sort", bytesRead, target.bytes(), 0, records == 0 ? 0 : 1, 0));
      } else {
        int finalRuns = mp.finalMerge() == null ? 1 : mp.finalMerge().fanIn();
        phases.add(
            merge.phase(
                "merge pass " + Math.max(1, mp.passes().size()) + " (final, 1 part)",
                stats.spilledBytes(), // every record once, from the runs or their merges
                target.bytes(),
                finalRuns,
                1,
                finalRuns));
      }
      return new SortReport(
          records,
          bytesRead,
          config.threads(),
          config.tempDirs().size(),
          false,
          stats.spilledRuns(),
          mp == null ? 0 : mp.passes().size(),
          mp == null ? 0 : mp.fanIn(),
          engine.peakMemoryBytes(),
          phases,
          in,
          out != null ? out : in,
          temp == null ? List.of() : FileSortJob.devices(config, temp));
    } catch (Throwable e) {
      throw Failures.translate(e);
    }
  }

  /** Reads every input into the session, in order. */
  private void addAll(SessionEngine engine) throws IOException {
    for (SortedInputs.Input in : inputs) {
      if (engine.fixedSize > 0) {
        addFixed(engine, in);
      } else {
        StreamRecords records = new StreamRecords(in.stream(), in.name(), config.format());
        long before = bytesRead;
        while (records.next()) {
          engine.addEntry(records.buffer(), records.start(), records.length(), null, 0, 0);
          bytesRead = before + records.bytesRead();
          if (bytesRead >= nextProgress) {
            progress("reading", bytesRead);
          }
        }
        bytesRead = before + records.bytesRead();
      }
    }
    config.progress().update("reading", bytesRead, bytesRead);
  }

  /** Fixed records: read in whole records, many at a time; a partial one at the end is an error. */
  private void addFixed(SessionEngine engine, SortedInputs.Input in) throws IOException {
    int size = engine.fixedSize;
    byte[] buf = new byte[Math.max(size, FIXED_READ / size * size)];
    ByteBuffer view = ByteBuffer.wrap(buf);
    long read = 0;
    while (true) {
      int n = 0;
      int r = 0;
      while (n < buf.length && (r = read(in, buf, n)) >= 0) {
        n += r;
      }
      int whole = n / size * size;
      if (whole > 0) {
        view.clear().limit(whole);
        if (engine.spec.inPlace()) {
          engine.addInPlace(view);
        } else {
          for (int p = 0; p < whole; p += size) {
            engine.addEntry(view, p, size, null, 0, 0);
          }
        }
      }
      read += n;
      bytesRead += n;
      if (bytesRead >= nextProgress) {
        progress("reading", bytesRead);
      }
      if (r < 0) {
        if (n != whole) {
          throw new SortIOException(
              "read",
              in.name(),
              "input size "
                  + read
                  + " is not a multiple of record size "
                  + size
                  + ": "
                  + (n - whole)
                  + " trailing bytes at offset "
                  + (read - (n - whole)));
        }
        return;
      }
    }
  }

  private static int read(SortedInputs.Input in, byte[] buf, int at) throws SortIOException {
    try {
      return in.stream().read(buf, at, buf.length - at);
    } catch (SortIOException e) {
      throw e;
    } catch (IOException e) {
      throw new SortIOException("read", in.name(), SortIOException.reasonOf(e), e);
    }
  }

  /** Writes the cursor's records, framed, into the target; the last {@code next()} checks them. */
  private void write(SessionCursor cursor, EntrySpec spec, Target target) throws IOException {
    EntrySpec.FramedSink sink = target.open();
    nextProgress = PROGRESS_STEP;
    long written = 0;
    while (cursor.next()) {
      ByteBuffer r = cursor.record();
      spec.frame(r, r.position(), r.remaining(), sink);
      written += r.remaining() + spec.framing();
      if (written >= nextProgress) {
        progress("writing", written);
      }
    }
    config.progress().update("writing", written, Math.max(written, bytesRead));
  }

  /** Reports progress of {@code phase} and checks for cancellation between steps. */
  private void progress(String phase, long done) throws IOException {
    nextProgress = done + PROGRESS_STEP;
    Failures.checkCancelled();
    // While reading, the total is unknown: the bar shows what was read and the rate.
    config.progress().update(phase, done, phase.equals("reading") ? done : bytesRead);
  }
}
