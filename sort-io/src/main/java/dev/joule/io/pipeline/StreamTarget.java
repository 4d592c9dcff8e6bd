package dev.joule.io.pipeline;

import dev.joule.io.block.BlockPool;
import dev.joule.io.block.DeviceMeter;
import dev.joule.io.block.SortThreads;
import dev.joule.io.config.FileKind;
import dev.joule.io.config.SortConfig;
import dev.joule.io.fs.Failures;
import dev.joule.io.input.EntrySpec;
import dev.joule.io.output.AtomicOutput;
import dev.joule.io.plan.SessionPlan;
import dev.joule.io.plan.SortPlan;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Where a sort of streams ({@link StreamSortJob}) writes its records: a stream, which has them as
 * they pass the check, or a file, published only after the check passed. Opened once all input is
 * read (so the output may be one of the inputs); one owner thread.
 */
sealed interface StreamTarget permits StreamTarget.ToStream, StreamTarget.ToFile {
  /** Opens the output; returns the sink of the framed records. */
  EntrySpec.FramedSink open(DeviceMeter meter) throws IOException;

  /** What a failed check calls the output. */
  String name();

  /** What a failed check says of the records the output got (asked when it fails). */
  String outcome();

  /** After the last record passed the check: flushes, or publishes. */
  void finish() throws IOException;

  /** Bytes handed to the output so far. */
  long bytes();

  /** Closes what {@link #open} opened; a file's unpublished temporary is deleted. */
  void close() throws IOException;

  /** A stream (standard output, a pipe, a device), flushed at the end, never closed here. */
  final class ToStream implements StreamTarget {
    private final OutputStream out;
    private final Path name;
    private StreamSink sink;

    ToStream(OutputStream out, Path name) {
      this.out = out;
      this.name = name;
    }

    @Override
    public EntrySpec.FramedSink open(DeviceMeter meter) {
      sink = new StreamSink(out, name, meter);
      return sink;
    }

    @Override
    public String name() {
      return name.toString();
    }

    @Override
    public String outcome() {
      long n = sink == null ? 0 : sink.bytesWritten();
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
      return sink == null ? 0 : sink.bytes();
    }

    @Override
    public void close() {}
  }

  /** A file, written under a temporary name and published atomically ({@link AtomicOutput}). */
  final class ToFile implements StreamTarget {
    private final Path output;
    private final SortConfig config;
    private final SortThreads threads;
    private BlockPool pool;
    private AtomicOutput out;

    ToFile(Path output, SortConfig config, SortThreads threads) {
      this.output = output;
      this.config = config;
      this.threads = threads;
    }

    @Override
    public EntrySpec.FramedSink open(DeviceMeter meter) throws IOException {
      // The session holds one chunk or the merge's buffers by now: two transfers of a session's
      // size (B/128, SessionPlan) fit beside them.
      int transfer =
          Math.min(config.transferSize(FileKind.OUTPUT), SessionPlan.of(config).tempTransfer());
      pool = new BlockPool(SortPlan.OUTPUT_POOL_BUFFERS, transfer);
      out =
          AtomicOutput.create(output, config.directIo(), config.notices(), pool, 1, threads, meter);
      return EntrySpec.FramedSink.of(out.writer());
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
      out.commit();
    }

    @Override
    public long bytes() {
      return out == null ? 0 : out.writer().position();
    }

    @Override
    public void close() throws IOException {
      Failures.closeAll(Arrays.asList(out, pool)); // nulls are skipped
    }
  }
}
