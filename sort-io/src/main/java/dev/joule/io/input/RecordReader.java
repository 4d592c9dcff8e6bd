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
public final class RecordReader implements AutoCloseable {

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
  public boolean next() throws IOException {
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

  /** Copies the next {@code n} input bytes into {@code dst} at {@code at}, across buffers. */
  private void gather(ByteBuffer dst, int at, int n, long recordStart, String what)
      throws IOException {
    int done = 0;
    while (done < n) {
      if (pos == lim && !advanceBuffer()) {
        throw new SortIOException(
            "read",
            in.file().path(),
            "the input ends inside the "
                + what
                + " at offset "
                + recordStart
                + " ("
                + (n - done)
                + " bytes missing)");
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
      curOffset += lim;
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
    return new SortIOException(
        "read",
        in.file().path(),
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
  public ByteBuffer buffer() {
    return recordBuffer;
  }

  /** Index of the current record's first byte in {@link #buffer()}. */
  public int start() {
    return recordStart;
  }

  /** Bytes of the current record (without delimiter or length prefix). */
  public int length() {
    return recordLength;
  }

  /** Input offset of the current record (of its length prefix, for rows). */
  public long offset() {
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

  /** Stops the reader thread and gives every buffer back to the pool; idempotent. */
  @Override
  public void close() throws IOException {
    try {
      reader.close();
    } finally {
      // The thread has stopped: the buffers it held are the caller's (ours) again.
      for (ByteBuffer b : inFlight) {
        pool.release(b);
      }
      inFlight.clear();
      if (cur != null) {
        pool.release(cur);
        cur = null;
      }
    }
  }
}
