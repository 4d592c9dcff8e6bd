package dev.joule.io.pipeline;

import dev.joule.io.block.DeviceMeter;
import dev.joule.io.block.SortThreads;
import dev.joule.io.config.NoticeSink;
import dev.joule.io.config.SortConfig;
import dev.joule.io.error.SortIOException;
import dev.joule.io.fs.Failures;
import dev.joule.io.input.EntrySpec;
import dev.joule.io.input.KeyAhead;
import dev.joule.io.input.StreamRecords;
import dev.joule.io.output.AtomicOutput;
import dev.joule.io.plan.MergePlan;
import dev.joule.io.report.DataSummary;
import dev.joule.io.report.PhaseClock;
import dev.joule.io.report.PhaseReport;
import dev.joule.io.report.PrefetchReport;
import dev.joule.io.report.SortReport;
import dev.joule.io.stripe.TempSpace;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One sort of streams ({@link ExternalSorter#sort(List, Path, SortConfig)} and {@link
 * ExternalSorter#sort(List, OutputStream, Path, SortConfig)}): standard input, pipes, or several
 * files read one after another, whose records go into a sort session as they are read, with no copy
 * into a temp file. The session ({@link SessionEngine}) sorts in memory what fits its budget, else
 * writes runs while the input is still being read; then its cursor yields the records in order
 * (from memory, or from the final merge), and they are written as they come into the {@link
 * StreamTarget}: a stream at once, or a file published only after the check.
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
 * <p><b>Report.</b> One phase "in-memory sort", or "run formation" (with the merge passes before
 * the final one, which the session runs when the input ends) and the final merge; the timeline
 * samples the inputs, the temp stripes once they are opened, and the output.
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
  private final SortThreads threads;
  private final NoticeSink notices;
  private final List<PhaseReport> phases = new ArrayList<>();
  private TimelineSampler timeline;
  private long bytesRead;
  private long nextProgress = PROGRESS_STEP;

  StreamSortJob(List<SortedInputs.Input> inputs, SortConfig config) {
    this.inputs = List.copyOf(inputs);
    this.config = config;
    this.threads = SortThreads.of(config.threadFactory());
    this.notices = NoticeSink.distinct(config.notices());
  }

  /** Sorts into {@code out}, named {@code name} in errors; flushed, not closed. */
  SortReport toStream(OutputStream out, Path name) throws IOException {
    return run(new StreamTarget.ToStream(out, name));
  }

  /** Sorts into {@code output}, published atomically once checked; it may be an input. */
  SortReport toFile(Path output) throws IOException {
    AtomicOutput.checkDirectory(output);
    return run(new StreamTarget.ToFile(output, config, threads));
  }

  private SortReport run(StreamTarget target) throws IOException {
    try {
      timeline = TimelineSampler.start(config, threads, notices);
      return sort(target);
    } catch (Throwable e) {
      if (timeline != null) {
        timeline.close();
      }
      throw Failures.translate(e);
    }
  }

  private SortReport sort(StreamTarget target) throws IOException {
    PhaseClock clock = new PhaseClock();
    try (SessionEngine engine = new SessionEngine(config, false, false)) {
      RunStore store = engine.store();
      store.onTempOpen(this::tempDevices);
      timeline.phase("in-memory sort"); // until the first spill opens the temp space
      readAll(engine);
      SessionCursor cursor = (SessionCursor) engine.finish();
      SessionStats stats = engine.stats();
      MergePlan mp = stats.spilledRuns() == 0 ? null : store.mergePlan();
      TempSpace temp = store.openTemp(); // its meters: the cursor's end closes it
      String finalMerge = mp == null ? null : formed(clock, stats, mp);
      PhaseClock merge = new PhaseClock();
      cursor.describeOutput(target.name(), target::outcome);
      writeAll(cursor, engine.spec, target);
      long records = store.inputRecords();
      if (mp == null) {
        addPhase(
            clock.phase("in-memory sort", bytesRead, target.bytes(), 0, records == 0 ? 0 : 1, 0),
            null);
      } else {
        int in = mp.finalMerge() == null ? 1 : mp.finalMerge().fanIn();
        // The final merge reads every record once, from the runs or from their merges.
        addPhase(merge.phase(finalMerge, stats.spilledBytes(), target.bytes(), in, 1, in), null);
      }
      return report(engine, stats, mp, temp, cursor.summary());
    }
  }

  /**
   * The phase of run formation, which ran until the input ended, with the merge passes before the
   * final one (the session runs them in {@code finish()}); returns the final merge's name.
   */
  private String formed(PhaseClock clock, SessionStats stats, MergePlan mp) {
    String finalMerge = "merge pass " + Math.max(1, mp.passes().size()) + " (final, 1 part)";
    int k = stats.mergePasses();
    String name =
        "run formation" + (k == 0 ? "" : k == 1 ? " and merge pass 1" : " and merge passes 1-" + k);
    addPhase(
        clock.phase(
            name,
            bytesRead,
            stats.spilledBytes() + stats.mergedBytes(),
            0,
            stats.spilledRuns(),
            k > 0 ? mp.fanIn() : 0),
        finalMerge);
    return finalMerge;
  }

  /**
   * The report of the finished sort ({@code temp}: its temp space if it spilled; {@code out}: the
   * check's summary, null without one).
   */
  private SortReport report(
      SessionEngine engine, SessionStats stats, MergePlan mp, TempSpace temp, DataSummary out) {
    RunStore store = engine.store();
    long records = store.inputRecords();
    DataSummary in = DataSummary.of(records, store.inputChecksum(), -1, false);
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
        temp == null ? List.of() : FileSortJob.devices(config, temp),
        timeline.finish(),
        PrefetchReport.NONE,
        store.compressionReport());
  }

  /** Records a finished phase, in the report and on the timeline; {@code next} is the next one. */
  private void addPhase(PhaseReport p, String next) {
    phases.add(p);
    timeline.phaseEnded(p, next);
  }

  /** The temp space was opened: the sort spills; its stripes become devices of the timeline. */
  private void tempDevices(TempSpace temp) {
    timeline.phase("run formation");
    for (int i = 0; i < config.tempDirs().size(); i++) {
      timeline.device("temp " + i, config.tempDirs().get(i).toString(), temp.meter(i));
    }
  }

  /** Reads every input into the session, in order; closes them. */
  private void readAll(SessionEngine engine) throws IOException {
    try {
      for (SortedInputs.Input in : inputs) {
        DeviceMeter meter = timeline.newDevice("input", in.name().toString());
        SortedInputs.Input metered = new SortedInputs.Input(in.name(), metered(in.stream(), meter));
        if (engine.fixedSize > 0) {
          addFixed(engine, metered);
        } else {
          addLines(engine, metered);
        }
      }
    } catch (Throwable e) {
      SortedInputs.closeAllAfter(e, inputs);
      throw e;
    }
    SortedInputs.closeAll(inputs);
    config.progress().update("reading", bytesRead, bytesRead);
  }

  /**
   * Lines and length-prefixed rows, one at a time; where their keys are most of the work (collated
   * in a locale) and the sort has a second thread, with the keys encoded ahead on two threads.
   */
  private void addLines(SessionEngine engine, SortedInputs.Input in) throws IOException {
    StreamRecords records = new StreamRecords(in.stream(), in.name(), config.format());
    long before = bytesRead;
    if (engine.spec.parseBound() && config.threads() > 1) {
      addWithKeysAhead(engine, records, before);
      return;
    }
    while (records.next()) {
      engine.addEntry(records.buffer(), records.start(), records.length(), null, 0, 0);
      bytesRead = before + records.bytesRead();
      if (bytesRead >= nextProgress) {
        progress("reading", bytesRead);
      }
    }
    bytesRead = before + records.bytesRead();
  }

  /** {@link #addLines} with the keys encoded ahead in batches (docs/decisions/D37). */
  private void addWithKeysAhead(SessionEngine engine, StreamRecords records, long before)
      throws IOException {
    try (KeyAhead ahead =
        new KeyAhead(records, engine.spec, SortThreads.of(config.threadFactory()))) {
      for (KeyAhead.Batch b = ahead.current(true); b != null; b = ahead.current(true)) {
        for (int i = b.next; i < b.count; i++) {
          if (i == b.failedAt) {
            throw new IllegalArgumentException(
                "record " + b.position[i] + " has no key: " + b.failure.getMessage(), b.failure);
          }
          engine.addEntry(
              b.bytes(), b.start[i], b.length[i], b.keys(), b.keyStart[i], b.keyLength[i]);
          b.next = i + 1;
        }
        bytesRead = before + records.bytesRead();
        if (bytesRead >= nextProgress) {
          progress("reading", bytesRead);
        }
      }
    }
    bytesRead = before + records.bytesRead();
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

  /** {@code in}, its reads counted on {@code meter} (the timeline's input device). */
  private static InputStream metered(InputStream in, DeviceMeter meter) {
    if (!meter.counting()) {
      return in;
    }
    return new FilterInputStream(in) {
      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        long t = meter.start();
        int n;
        try {
          n = super.read(b, off, len);
        } catch (IOException | RuntimeException e) {
          meter.failed();
          throw e;
        }
        meter.read(Math.max(0, n), t);
        return n;
      }
    };
  }

  /**
   * Writes the cursor's records, framed, into the target, whose output opens now that the input is
   * read; the last {@code next()} checks them. Publishes or flushes; closes the output.
   */
  private void writeAll(SessionCursor cursor, EntrySpec spec, StreamTarget target)
      throws IOException {
    try {
      EntrySpec.FramedSink sink = target.open(timeline.newDevice("output", target.name()));
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
  }

  /** Reports progress of {@code phase} and checks for cancellation between steps. */
  private void progress(String phase, long done) throws IOException {
    nextProgress = done + PROGRESS_STEP;
    Failures.checkCancelled();
    // While reading, the total is unknown: the bar shows what was read and the rate.
    config.progress().update(phase, done, phase.equals("reading") ? done : bytesRead);
  }
}
