package dev.joule.core.valsort;

import dev.joule.core.memory.SuppressForbidden;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Validates a random-access source of records (typically a file) on several threads, with a result
 * identical to one sequential pass.
 *
 * <p>Algorithm: the source is cut into one contiguous range per thread on record boundaries (the
 * last range also takes any trailing partial record, so that it fails as in a sequential pass);
 * each thread streams its range through its own {@link StreamingValidator}; the per-range summaries
 * are combined in order by {@link SummaryCombiner}, which checks the boundaries exactly as valsort
 * {@code -s} does. Memory: one buffer of {@code bufferBytes} per thread, allocated per call.
 * Thread-safety: {@link #validate} may be called from any thread; it starts threads named {@code
 * joule-valsort-N} and calls the reader concurrently from them.
 */
public final class ParallelValidator {
  private static final int RECORD = ValsortSummary.RECORD_SIZE;

  /** Reads bytes at an absolute position, like {@code FileChannel.read(ByteBuffer, long)}. */
  @FunctionalInterface
  public interface RangeReader {
    /**
     * Reads up to {@code dst.remaining()} bytes at {@code position} into {@code dst}.
     *
     * @return the bytes read, or −1 at end of input
     */
    int read(ByteBuffer dst, long position) throws IOException;
  }

  private final int threads;
  private final int bufferBytes;
  private final boolean caseInsensitive;

  /**
   * A validator comparing keys as unsigned bytes (memcmp).
   *
   * @param threads threads to use, at least 1 (1 validates in the calling thread)
   * @param bufferBytes read size per thread, at least one record (4 MiB suits files)
   */
  public ParallelValidator(int threads, int bufferBytes) {
    this(threads, bufferBytes, false);
  }

  /**
   * @param threads threads to use, at least 1 (1 validates in the calling thread)
   * @param bufferBytes read size per thread, at least one record (4 MiB suits files)
   * @param caseInsensitive valsort {@code -i}: the strcasecmp quirk of {@link StreamingValidator}
   */
  public ParallelValidator(int threads, int bufferBytes, boolean caseInsensitive) {
    if (threads < 1 || bufferBytes < RECORD) {
      throw new IllegalArgumentException("threads=" + threads + ", bufferBytes=" + bufferBytes);
    }
    this.threads = threads;
    this.bufferBytes = bufferBytes;
    this.caseInsensitive = caseInsensitive;
  }

  /**
   * Validates the {@code size} bytes of {@code reader}.
   *
   * @throws ValsortException an empty input or a trailing partial record
   * @throws IOException a read error, or the input ended before {@code size} bytes
   */
  public ValsortSummary validate(long size, RangeReader reader)
      throws IOException, ValsortException, InterruptedException {
    long records = size / RECORD;
    int parts = (int) Math.max(1, Math.min(threads, records));
    long[] bounds = new long[parts + 1];
    for (int p = 0; p < parts; p++) {
      bounds[p] = records * p / parts * RECORD;
    }
    bounds[parts] = size;
    ValsortSummary[] summaries = new ValsortSummary[parts];
    Exception[] failures = new Exception[parts];
    if (parts == 1) {
      summaries[0] = validateRange(reader, 0, size);
    } else {
      List<Thread> started = new ArrayList<>();
      for (int p = 0; p < parts; p++) {
        int id = p;
        Thread t =
            new Thread(
                () -> {
                  try {
                    summaries[id] = validateRange(reader, bounds[id], bounds[id + 1]);
                  } catch (IOException | ValsortException | RuntimeException e) {
                    failures[id] = e;
                  }
                },
                "joule-valsort-" + p);
        t.start();
        started.add(t);
      }
      for (Thread t : started) {
        t.join();
      }
      for (Exception e : failures) { // the earliest range's failure, as a sequential pass would see
        rethrow(e);
      }
    }
    SummaryCombiner combiner = new SummaryCombiner(caseInsensitive);
    for (ValsortSummary s : summaries) {
      combiner.add(s);
    }
    return combiner.result();
  }

  @SuppressForbidden("the validator tool's own read buffer per thread, not a sort's memory")
  private ValsortSummary validateRange(RangeReader reader, long from, long to)
      throws IOException, ValsortException {
    StreamingValidator v = new StreamingValidator(caseInsensitive);
    ByteBuffer buf = ByteBuffer.allocateDirect((int) Math.min(bufferBytes, Math.max(to - from, 1)));
    long pos = from;
    while (pos < to) {
      buf.clear();
      buf.limit((int) Math.min(buf.capacity(), to - pos));
      while (buf.hasRemaining()) {
        int n = reader.read(buf, pos + buf.position());
        if (n < 0) {
          throw new IOException("input ended at byte " + (pos + buf.position()) + " of " + to);
        }
      }
      buf.flip();
      pos += buf.remaining();
      v.accept(buf);
    }
    return v.finish();
  }

  private static void rethrow(Exception e) throws IOException, ValsortException {
    if (e == null) {
      return;
    }
    if (e instanceof IOException io) {
      throw io;
    }
    if (e instanceof ValsortException ve) {
      throw ve;
    }
    throw (RuntimeException) e;
  }
}
