package dev.joule.io.input;

import dev.joule.io.block.SortThreads;
import dev.joule.io.block.WorkerThread;
import dev.joule.io.error.SortCancelledException;
import dev.joule.io.fs.Failures;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/**
 * The records of a {@link RecordSource} (a file's {@link RecordReader}, a stream's {@link
 * StreamRecords}) read ahead in batches, in input order, with their keys encoded by two threads:
 * the filling thread encodes one batch while a helper ({@code joule-keys}) encodes the batch before
 * it. For sorts whose key costs most of the parse (a field collated in a locale, {@link
 * EntrySpec#parseBound()}: a call of the C library's {@code strxfrm_l} per line, 0.9 µs for a
 * 41-byte line) and whose lines must stay in input order, so that the parse itself cannot be split
 * over threads ({@link EntrySpec#orderFree()} false: equal lines keep their input order). A batch's
 * records are copied out of the reader's buffers (a few percent of a transform's cost), so the
 * reader moves on while their keys are encoded.
 *
 * <p>Memory: two batches of {@link #BATCH_RECORDS} records, their bytes and keys on the heap (tens
 * of KiB each for lines of tens of bytes), and the helper thread. Not thread-safe: one filling
 * thread; {@link #close()} waits for the helper.
 */
public final class KeyAhead implements AutoCloseable {
  /**
   * Records per batch: a batch of 41-byte lines is about 1 ms of transforms, against the tens of
   * microseconds a hand-over to the helper costs.
   */
  static final int BATCH_RECORDS = 1024;

  /**
   * A batch of records, where each was ({@link RecordSource#position()}) and, once encoded, their
   * keys: record {@code i} is {@code [start[i], start[i] + length[i])} of {@link #bytes()}, its key
   * {@code [keyStart[i], keyStart[i] + keyLength[i])} of {@link #keys()}, unless {@code i} is
   * {@code failedAt} (the record has no key: {@code failure}). The caller advances {@code next}.
   */
  public static final class Batch {
    private ByteBuffer bytes = ByteBuffer.allocate(64 << 10);
    private ByteBuffer keys = ByteBuffer.allocate(64 << 10);
    public final int[] start = new int[BATCH_RECORDS];
    public final int[] length = new int[BATCH_RECORDS];
    public final long[] position = new long[BATCH_RECORDS];
    public final int[] keyStart = new int[BATCH_RECORDS];
    public final int[] keyLength = new int[BATCH_RECORDS];
    public int count;
    public int next; // the first record not yet taken
    public int failedAt = -1; // the record that has no key, or -1
    public IllegalArgumentException failure;

    public ByteBuffer bytes() {
      return bytes;
    }

    public ByteBuffer keys() {
      return keys;
    }

    boolean consumed() {
      return next >= count;
    }

    /** Copies the reader's current record in; false when the batch is full. */
    boolean add(RecordSource records) {
      if (count == BATCH_RECORDS) {
        return false;
      }
      int n = records.length();
      int at = count == 0 ? 0 : start[count - 1] + length[count - 1];
      if (at + n > bytes.capacity()) {
        if (count > 0 && at + n > 4 * bytes.capacity()) {
          return false; // a long record starts the next batch rather than grow this one far
        }
        ByteBuffer b = ByteBuffer.allocate(Math.max(at + n, 2 * bytes.capacity()));
        b.put(0, bytes, 0, at);
        bytes = b;
      }
      bytes.put(at, records.buffer(), records.start(), n);
      start[count] = at;
      length[count] = n;
      position[count] = records.position();
      count++;
      return true;
    }

    /** Encodes the keys of records {@code [from, to)}, stopping at one that has none. */
    void encode(EntrySpec spec, int from, int to) {
      int at = from == 0 ? 0 : keyStart[from - 1] + keyLength[from - 1];
      for (int i = from; i < to; i++) {
        int n;
        try {
          n = spec.encodeKey(bytes, start[i], length[i], keys, at);
          if (n < 0) {
            grow(at, -n);
            n = spec.encodeKey(bytes, start[i], length[i], keys, at);
          }
        } catch (IllegalArgumentException e) {
          failedAt = i;
          failure = e;
          return;
        }
        keyStart[i] = at;
        keyLength[i] = n;
        at += n;
      }
    }

    private void grow(int used, int needed) {
      ByteBuffer b = ByteBuffer.allocate(Math.max(used + needed, 2 * keys.capacity()));
      b.put(0, keys, 0, used);
      keys = b;
    }

    void clear() {
      count = 0;
      next = 0;
      failedAt = -1;
      failure = null;
    }
  }

  private final RecordSource records;
  private final EntrySpec spec;
  private final SortThreads threads;
  private WorkerThread helper; // made at the first batch a helper encodes
  private Batch ready = new Batch(); // keys encoded, being placed
  private Batch later = new Batch(); // keys encoded (by the filling thread), placed after ready
  private boolean readerDone;
  private boolean held; // the reader's current record is in no batch yet

  /**
   * Batches of {@code records}, keys as {@code spec} derives them, a helper from {@code threads}.
   */
  public KeyAhead(RecordSource records, EntrySpec spec, SortThreads threads) {
    this.records = records;
    this.spec = spec;
    this.threads = threads;
    ready.next = ready.count; // both empty
  }

  /**
   * The batch whose records go into arenas next, with their keys, or null when the input is used
   * up. With {@code helped}, the next two batches are read and encoded at once, one by the helper;
   * else one, by the calling thread.
   */
  public Batch current(boolean helped) throws IOException {
    if (!ready.consumed()) {
      return ready;
    }
    if (!later.consumed()) {
      Batch b = ready;
      ready = later;
      later = b;
      later.clear();
      return ready;
    }
    if (readerDone && !held) {
      return null;
    }
    ready.clear();
    later.clear();
    fillBatch(ready);
    if (ready.count == 0) {
      return null;
    }
    if (!helped || readerDone) {
      ready.encode(spec, 0, ready.count);
      return ready;
    }
    if (helper == null) {
      helper = new WorkerThread(threads, "keys");
    }
    Batch first = ready;
    Future<?> encoding =
        helper.submit(
            () -> {
              first.encode(spec, 0, first.count);
              return null;
            });
    try {
      fillBatch(later);
      later.encode(spec, 0, later.count);
    } finally {
      await(encoding);
    }
    return ready;
  }

  private void fillBatch(Batch b) throws IOException {
    while (true) {
      if (!held) {
        if (readerDone || !records.next()) {
          readerDone = true;
          return;
        }
        held = true;
      }
      if (!b.add(records)) {
        return; // the reader's current record starts the next batch
      }
      held = false;
    }
  }

  private static void await(Future<?> f) throws IOException {
    try {
      f.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SortCancelledException("sort cancelled while encoding keys");
    } catch (ExecutionException e) {
      throw Failures.translate(e.getCause());
    }
  }

  /** Stops the helper, waiting for a batch it encodes. */
  @Override
  public void close() {
    if (helper != null) {
      helper.close();
    }
  }
}
