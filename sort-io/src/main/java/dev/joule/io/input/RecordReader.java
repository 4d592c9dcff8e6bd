package dev.joule.io.input;

import dev.joule.core.memory.ByteSearch;
import dev.joule.core.record.FixedLengthFormat;
import dev.joule.core.record.LengthPrefixedFormat;
import dev.joule.core.record.LineFormat;
import dev.joule.core.record.RecordFormat;
import dev.joule.io.block.BlockPool;
import dev.joule.io.block.BlockReader;
import dev.joule.io.block.SortThreads;
import dev.joule.io.error.SortIOException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * Splits the input into the records of a variable-length format ({@link LineFormat}, {@link
 * LengthPrefixedFormat}), or of a fixed one whose key must be derived, front to back, reading ahead
 * into a few pool buffers on the {@link BlockReader}'s thread. A record inside one buffer is handed
 * out where it is (no copy); one that crosses buffers is joined in a carry buffer that grows up to
 * the format's record limit.
 *
 * <p>Lines: the delimiter is found eight bytes at a time ({@link ByteSearch}); a last line without
 * a delimiter is a record. Length-prefixed rows: a 4-byte big-endian length, then the row. A line
 * or row longer than the limit, or a file that ends inside a row, is a {@link SortIOException}
 * naming the file and the record's offset.
 *
 * <p>Memory: the pool's buffers (the caller's) and the carry buffer (at most the record limit, only
 * while a record crosses buffers). Not thread-safe: one thread pulls records.
 */
public final class RecordReader implements RecordSource, AutoCloseable {

  private final InputFile in;
  private final RecordFormat format;
  private final boolean lines;
  private final byte delimiter;
  private final int maxLength;
  private final int fixedSize; // > 0: fixed records (whose key is derived, so they are parsed)
  private final BlockReader reader;
  private final BlockPool pool;
  private final java.util.ArrayDeque<ByteBuffer> inFlight = new java.util.ArrayDeque<>();
  private ByteBuffer cur; // the buffer being split (read-only use), null before the first
  private int pos; // next unread byte of cur
  private int lim;
  private boolean eof; // no buffer after cur
  private long curOffset; // input offset of cur's first byte
  private long nextOffset; // input offset of the next buffer
  private ByteBuffer carry = ByteBuffer.allocate(0);
  private ByteBuffer recordBuffer;
  private int recordStart;
  private int recordLength;
  private long recordOffset;
  private long bytesRead;
  // Spans (parallel parsing): whole lines handed to parse threads, the line that crosses buffers
  // copied out, and the pool buffers the threads hold.
  private final java.util.ArrayDeque<LineSpan> ready = new java.util.ArrayDeque<>();
  private final java.util.Set<ByteBuffer> held =
      java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
  private ByteBuffer straddle; // the start of a line that crosses buffers, or null
  private int straddleLength;
  private long straddleOffset;
  private boolean spans; // nextSpan was called: next() may not be any more

  /**
   * Reads {@code in} in transfers of {@code transfer} bytes into the buffers of {@code pool} (at
   * least two, one split while the next is read), on a reader thread of {@code threads}.
   */
  public RecordReader(
      InputFile in, RecordFormat format, int transfer, BlockPool pool, SortThreads threads)
      throws IOException {
    this.in = in;
    this.format = format;
    this.lines = format instanceof LineFormat;
    this.delimiter = lines ? ((LineFormat) format).delimiter() : 0;
    this.maxLength = format.maxRecordLength();
    this.fixedSize = format instanceof FixedLengthFormat f ? f.recordSize() : 0;
    this.pool = pool;
    this.reader = in.reader(transfer, pool.capacity(), threads);
    try {
      for (int i = 0; i < pool.capacity(); i++) {
        submit(acquire());
      }
    } catch (IOException | RuntimeException e) {
      close();
      throw e;
    }
  }

  private void submit(ByteBuffer b) throws IOException {
    inFlight.add(b);
    reader.submit(b);
  }

  private ByteBuffer acquire() throws IOException {
    try {
      return pool.acquire();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting for an input buffer");
    }
  }

  /**
   * Moves to the next record: afterwards {@link #buffer()}, {@link #start()} and {@link #length()}
   * describe it until the next call.
   *
   * @return false at the end of the input
   */
  @Override
  public boolean next() throws IOException {
    if (spans) {
      throw new IllegalStateException("the reader hands out spans of lines");
    }
    if (cur == null && (eof || !advanceBuffer())) {
      return false;
    }
    if (fixedSize > 0) {
      return nextFixed();
    }
    return lines ? nextLine() : nextRow();
  }

  private boolean nextFixed() throws IOException {
    if (pos == lim && !advanceBuffer()) {
      return false;
    }
    long start = curOffset + pos;
    if (lim - pos >= fixedSize) {
      emit(cur, pos, fixedSize, start);
      pos += fixedSize;
      return true;
    }
    carry = grow(carry, fixedSize);
    gather(carry, 0, fixedSize, start, "record");
    emit(carry, 0, fixedSize, start);
    return true;
  }

  private boolean nextLine() throws IOException {
    while (pos == lim) {
      if (!advanceBuffer()) {
        return false; // the input ended with a delimiter (or was empty)
      }
    }
    int d = find(cur, pos, lim);
    if (d >= 0) {
      if (d - pos > maxLength) { // only with input transfers above the limit
        throw tooLong("line", curOffset + pos, d - pos);
      }
      emit(cur, pos, d - pos, curOffset + pos);
      pos = d + 1;
      return true;
    }
    // A line that crosses buffers: gather it in the carry buffer.
    long start = curOffset + pos;
    int have = 0;
    while (true) {
      int end = find(cur, pos, lim);
      int n = (end >= 0 ? end : lim) - pos;
      if ((long) have + n > maxLength) {
        throw tooLong("line", start, (long) have + n);
      }
      carry = grow(carry, have + n);
      carry.put(have, cur, pos, n);
      have += n;
      if (end >= 0) {
        pos = end + 1;
        emit(carry, 0, have, start);
        return true;
      }
      pos = lim;
      if (!advanceBuffer()) {
        emit(carry, 0, have, start); // the last line has no delimiter
        return true;
      }
    }
  }

  private boolean nextRow() throws IOException {
    if (pos == lim && !advanceBuffer()) {
      return false;
    }
    long start = curOffset + pos;
    int length;
    if (lim - pos >= LengthPrefixedFormat.LENGTH_BYTES) {
      length = cur.getInt(pos);
      pos += LengthPrefixedFormat.LENGTH_BYTES;
    } else {
      carry = grow(carry, LengthPrefixedFormat.LENGTH_BYTES);
      gather(carry, 0, LengthPrefixedFormat.LENGTH_BYTES, start, "row");
      length = carry.getInt(0);
    }
    if (length < 0 || length > maxLength) {
      throw tooLong("row", start, length & 0xFFFFFFFFL);
    }
    if (lim - pos >= length) {
      emit(cur, pos, length, start);
      pos += length;
      return true;
    }
    carry = grow(carry, length);
    gather(carry, 0, length, start, "row");
    emit(carry, 0, length, start);
    return true;
  }

  /**
   * Whole lines for one parse thread: {@code [from, to)} of {@code buffer} holds lines that each
   * end with the delimiter, except that the last may end at {@code to} without one (the input's
   * last line, or a line that crossed buffers, copied out alone). {@code offset} is the input
   * offset of {@code from}. A span of a pool buffer holds that buffer until {@link #release}.
   */
  public record LineSpan(ByteBuffer buffer, int from, int to, long offset, boolean pooled) {}

  /**
   * The next span of whole lines in input order, or null at the end of the input; for parse threads
   * that each split the lines of their own spans (lines only). Per pool buffer, the lines from its
   * first delimiter to its last are one span, handed out where they are; the line that crosses into
   * the next buffer is copied into a span of its own. Once called, {@link #next()} may not be.
   * Thread-safe with {@link #release}: parse threads take spans one at a time.
   *
   * @throws SortIOException if a line is longer than the format's limit
   */
  public synchronized LineSpan nextSpan() throws IOException {
    if (!lines) {
      throw new IllegalStateException(format + " has no lines to hand out in spans");
    }
    if (!spans && cur != null) {
      throw new IllegalStateException("records were taken one by one before spans");
    }
    spans = true;
    while (ready.isEmpty()) {
      if (eof || !advanceBuffer()) {
        if (straddle == null) {
          return null;
        }
        ready.add(straddleSpan()); // the last line has no delimiter
        break;
      }
      splitBuffer();
    }
    return ready.poll();
  }

  /** Splits the buffer just taken ({@code cur}) into spans, and takes it out of the reader's. */
  private void splitBuffer() throws IOException {
    ByteBuffer b = cur;
    int from = 0;
    if (straddle != null) {
      int d = find(b, 0, lim);
      int n = (d >= 0 ? d : lim);
      if ((long) straddleLength + n > maxLength) {
        throw tooLong("line", straddleOffset, (long) straddleLength + n);
      }
      straddle = grow(straddle, straddleLength + n);
      straddle.put(straddleLength, b, 0, n);
      straddleLength += n;
      if (d < 0) {
        recycle(b); // the line goes on in the next buffer
        return;
      }
      ready.add(straddleSpan());
      from = d + 1;
    }
    int last = lastDelimiter(b, from, lim);
    if (last < 0) {
      if (from < lim) {
        startStraddle(b, from);
      }
      recycle(b);
      return;
    }
    if (last - from > maxLength) { // the longest line of the span is at most its length
      checkLengths(b, from, last);
    }
    if (last + 1 < lim) {
      startStraddle(b, last + 1);
    }
    held.add(b);
    ready.add(new LineSpan(b, from, last + 1, curOffset + from, true));
    cur = null;
  }

  /** A line too long for the format inside one buffer (only with transfers above the limit). */
  private void checkLengths(ByteBuffer b, int from, int last) throws SortIOException {
    for (int p = from; p <= last; ) {
      int d = find(b, p, last + 1);
      if (d - p > maxLength) {
        throw tooLong("line", curOffset + p, d - p);
      }
      p = d + 1;
    }
  }

  private void startStraddle(ByteBuffer b, int from) throws SortIOException {
    int n = lim - from;
    if (n > maxLength) {
      throw tooLong("line", curOffset + from, n);
    }
    straddle = ByteBuffer.allocate(Math.max(n, 256));
    straddle.put(0, b, from, n);
    straddleLength = n;
    straddleOffset = curOffset + from;
  }

  private LineSpan straddleSpan() {
    LineSpan s = new LineSpan(straddle, 0, straddleLength, straddleOffset, false);
    straddle = null;
    straddleLength = 0;
    return s;
  }

  /** Hands the buffer {@code cur} back for more input (its bytes are not needed any more). */
  private void recycle(ByteBuffer b) throws IOException {
    cur = null;
    giveBack(b);
  }

  private void giveBack(ByteBuffer b) throws IOException {
    b.clear();
    if (eof) {
      pool.release(b);
    } else {
      submit(b);
    }
  }

  /** Whether {@link #nextSpan} has handed out the last span. */
  public synchronized boolean spansExhausted() {
    return spans && eof && ready.isEmpty() && straddle == null;
  }

  /**
   * Gives back the pool buffer of a span taken with {@link #nextSpan} once its lines are parsed.
   */
  public synchronized void release(LineSpan span) throws IOException {
    if (span.pooled() && held.remove(span.buffer())) {
      giveBack(span.buffer());
    }
  }

  /** Index of the last delimiter in {@code [from, to)} of {@code b}, or -1. */
  private int lastDelimiter(ByteBuffer b, int from, int to) {
    for (int i = to - 1; i >= from; i--) {
      if (b.get(i) == delimiter) {
        return i;
      }
    }
    return -1;
  }

  /** Copies the next {@code n} input bytes into {@code dst} at {@code at}, across buffers. */
  private void gather(ByteBuffer dst, int at, int n, long recordStart, String what)
      throws IOException {
    int done = 0;
    while (done < n) {
      if (pos == lim && !advanceBuffer()) {
        throw endsInside(in.file().path(), what, recordStart, n - done);
      }
      int m = Math.min(n - done, lim - pos);
      dst.put(at + done, cur, pos, m);
      pos += m;
      done += m;
    }
  }

  /** Index of the first delimiter in {@code [from, to)} of {@code b}, or -1. */
  private int find(ByteBuffer b, int from, int to) {
    return ByteSearch.indexOf(b, from, to, delimiter);
  }

  private void emit(ByteBuffer b, int start, int length, long offset) {
    recordBuffer = b;
    recordStart = start;
    recordLength = length;
    recordOffset = offset;
  }

  /** Moves to the next buffer of input (handing the current one back for more); false at EOF. */
  private boolean advanceBuffer() throws IOException {
    if (eof) {
      return false;
    }
    if (cur != null) {
      cur.clear();
      ByteBuffer done = cur;
      cur = null;
      submit(done);
    }
    ByteBuffer b = reader.take();
    inFlight.remove();
    int n = b.remaining();
    bytesRead += n;
    if (n == 0) {
      pool.release(b);
      eof = true;
      return false;
    }
    if (b.position() != 0) {
      throw new IllegalStateException("input buffers must start at position 0");
    }
    cur = b.order(java.nio.ByteOrder.BIG_ENDIAN);
    curOffset = nextOffset;
    nextOffset += n;
    pos = 0;
    lim = n;
    return true;
  }

  private static ByteBuffer grow(ByteBuffer b, int need) {
    if (b.capacity() >= need) {
      return b;
    }
    int cap = (int) Math.min(Integer.MAX_VALUE - 16, Math.max(need, 2L * b.capacity()));
    ByteBuffer g = ByteBuffer.allocate(cap);
    g.put(0, b, 0, b.capacity());
    return g;
  }

  private SortIOException tooLong(String what, long offset, long length) {
    return tooLong(in.file().path(), format, what, offset, length);
  }

  /**
   * The error of an input {@code path} that ends inside the {@code what} ("row") at {@code offset},
   * {@code missing} bytes short: the same words for a file and a stream ({@link StreamRecords}).
   */
  static SortIOException endsInside(Path path, String what, long offset, long missing) {
    return new SortIOException(
        "read",
        path,
        "the input ends inside the "
            + what
            + " at offset "
            + offset
            + " ("
            + missing
            + " bytes missing)");
  }

  /**
   * The error of a {@code what} ("line", "row") of {@code path} at {@code offset} longer than
   * {@code format} accepts, of which {@code length} bytes were seen: the same words whether the
   * input is read by position (this reader) or as a stream ({@link StreamRecords}).
   */
  static SortIOException tooLong(
      Path path, RecordFormat format, String what, long offset, long length) {
    int maxLength = format.maxRecordLength();
    return new SortIOException(
        "read",
        path,
        "the "
            + what
            + " at offset "
            + offset
            + " is longer than "
            + maxLength
            + " bytes (the longest "
            + what
            + " "
            + format
            + " accepts; "
            + length
            + " bytes or more)");
  }

  /** The buffer holding the current record (valid until the next call; absolute reads only). */
  @Override
  public ByteBuffer buffer() {
    return recordBuffer;
  }

  /** Index of the current record's first byte in {@link #buffer()}. */
  @Override
  public int start() {
    return recordStart;
  }

  /** Bytes of the current record (without delimiter or length prefix). */
  @Override
  public int length() {
    return recordLength;
  }

  /** Input offset of the current record (of its length prefix, for rows). */
  public long offset() {
    return recordOffset;
  }

  /** {@link #offset()}. */
  @Override
  public long position() {
    return recordOffset;
  }

  /** The input file's path, for errors. */
  public java.nio.file.Path path() {
    return in.file().path();
  }

  /** Input bytes read so far. */
  public long bytesRead() {
    return bytesRead;
  }

  /** After the last record: the input must be unchanged and fully read ({@link InputFile}). */
  public void finish() throws IOException {
    in.checkUnchanged(bytesRead);
  }

  /**
   * Stops the reader thread and gives every buffer back to the pool, those of spans not released
   * too (their parse threads must have stopped); idempotent.
   */
  @Override
  public synchronized void close() throws IOException {
    try {
      reader.close();
    } finally {
      // The thread has stopped: the buffers it held are the caller's (ours) again.
      for (ByteBuffer b : inFlight) {
        pool.release(b);
      }
      inFlight.clear();
      for (ByteBuffer b : held) { // spans' buffers: their parse threads have stopped
        pool.release(b);
      }
      held.clear();
      ready.clear();
      if (cur != null) {
        pool.release(cur);
        cur = null;
      }
    }
  }
}
