package dev.joule.io.input;

import dev.joule.core.memory.ByteSearch;
import dev.joule.core.record.FixedLengthFormat;
import dev.joule.core.record.LengthPrefixedFormat;
import dev.joule.core.record.LineFormat;
import dev.joule.core.record.RecordFormat;
import dev.joule.io.error.SortIOException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The records of a stream read front to back: standard input, a pipe, or a file read as one, for
 * the sort of streams (records handed to a sort session as they arrive), merging inputs that are
 * already sorted ({@code sort -m}) and checking order ({@code sort -c}). A stream cannot be read by
 * position, so not with the block I/O of {@link RecordReader}; a heap buffer is enough for one
 * pass.
 *
 * <p>A record is handed out where it lies in the buffer ({@link #buffer()}, {@link #start()},
 * {@link #length()}) and stays valid until the next call of {@link #next()}. A line longer than the
 * format's limit or a row whose length exceeds it is the {@link SortIOException} that {@link
 * RecordReader} throws for a file (the same words); a stream that ends inside a fixed record or a
 * row is one naming the input and the record's offset.
 *
 * <p>Memory: one buffer of {@value #INITIAL} bytes, grown to hold the longest record (at most the
 * format's limit). Not thread-safe.
 */
public final class StreamRecords implements RecordSource, AutoCloseable {
  /** First buffer size: many records per {@code read} call; grown only for a longer record. */
  static final int INITIAL = 1 << 16;

  private final InputStream in;
  private final Path name;
  private final int delimiter; // lines: the delimiter byte; -1 otherwise
  private final int fixedSize; // fixed records: their size; 0 otherwise
  private final int maxLength;
  private final RecordFormat format;
  private byte[] buf = new byte[INITIAL];
  private ByteBuffer view = ByteBuffer.wrap(buf);
  private int pos;
  private int lim;
  private long bufOffset; // stream offset of buf[0]
  private boolean eof;
  private int start;
  private int length;
  private long number;
  private int shifted; // bytes the last fill() moved the unread part down by
  private long bytesRead;

  /**
   * Records of {@code format} from {@code in}; {@code name} is what errors call the input ({@code
   * -} for standard input).
   */
  public StreamRecords(InputStream in, Path name, RecordFormat format) {
    this.in = in;
    this.name = name;
    this.delimiter = format instanceof LineFormat lf ? lf.delimiter() & 0xFF : -1;
    this.fixedSize = format instanceof FixedLengthFormat f ? f.recordSize() : 0;
    this.maxLength = format.maxRecordLength();
    this.format = format;
  }

  /**
   * Moves to the next record.
   *
   * @return false at the end of the stream
   * @throws SortIOException on a read error or a malformed record, naming the input
   */
  @Override
  public boolean next() throws IOException {
    if (delimiter >= 0) {
      return nextLine();
    }
    if (fixedSize > 0) {
      return nextBytes(fixedSize, "is not a multiple of the record size " + fixedSize);
    }
    if (!nextBytes(LengthPrefixedFormat.LENGTH_BYTES, null)) {
      return false;
    }
    long rowStart = bufOffset + start;
    int n = view.getInt(start);
    if (n < 0 || n > maxLength) {
      throw RecordReader.tooLong(name, format, "row", rowStart, n & 0xFFFFFFFFL);
    }
    pos = start; // re-read the length with its row, so that the row is contiguous
    nextBytes(LengthPrefixedFormat.LENGTH_BYTES + n, null); // false only at a row's start
    number--; // nextBytes counted the row twice
    start += LengthPrefixedFormat.LENGTH_BYTES;
    length = n;
    return true;
  }

  private boolean nextLine() throws IOException {
    int scanned = pos;
    while (true) {
      int at = indexOf(scanned, lim);
      if (at >= 0) {
        if (at - pos > maxLength) { // the buffer holds a little more than the limit
          throw RecordReader.tooLong(name, format, "line", bufOffset + pos, at - pos);
        }
        return emit(pos, at - pos, at + 1);
      }
      scanned = lim;
      if (lim - pos > maxLength) {
        throw RecordReader.tooLong(name, format, "line", bufOffset + pos, lim - pos);
      }
      if (!fill()) {
        if (pos == lim) {
          return false;
        }
        return emit(pos, lim - pos, lim); // a last line without its delimiter
      }
      scanned -= shifted;
    }
  }

  private int indexOf(int from, int to) {
    return ByteSearch.indexOf(view, from, to, (byte) delimiter);
  }

  /**
   * A record of exactly {@code n} bytes; a partial one at the end is an error: {@code partial}'s,
   * or (null) the file sort's for a row.
   */
  private boolean nextBytes(int n, String partial) throws IOException {
    while (lim - pos < n) {
      if (!fill()) {
        if (pos == lim) {
          return false;
        }
        if (partial == null) {
          throw RecordReader.endsInside(name, "row", bufOffset + pos, n - (lim - pos));
        }
        throw malformed(bufOffset + pos, partial);
      }
    }
    return emit(pos, n, pos + n);
  }

  private boolean emit(int from, int n, int next) {
    start = from;
    length = n;
    pos = next;
    number++;
    return true;
  }

  /** Reads more bytes after the unread part, moving or growing the buffer; false at the end. */
  private boolean fill() throws IOException {
    shifted = 0;
    if (eof) {
      return false;
    }
    if (lim == buf.length) {
      if (pos > 0) {
        shifted = pos;
        System.arraycopy(buf, pos, buf, 0, lim - pos);
        bufOffset += pos;
        lim -= pos;
        pos = 0;
      } else {
        long grown = Math.min((long) buf.length * 2, (long) maxLength + 8);
        if (grown <= buf.length) {
          throw RecordReader.tooLong(
              name, format, delimiter >= 0 ? "line" : "row", bufOffset, buf.length);
        }
        buf = Arrays.copyOf(buf, (int) grown);
        view = ByteBuffer.wrap(buf);
      }
    }
    int n;
    try {
      n = in.read(buf, lim, buf.length - lim);
    } catch (SortIOException e) {
      throw e; // the stream's own error (an input opened on first read): it names its operation
    } catch (IOException e) {
      throw new SortIOException("read", name, SortIOException.reasonOf(e), e);
    }
    if (n < 0) {
      eof = true;
      return false;
    }
    lim += n;
    bytesRead += n;
    return true;
  }

  private SortIOException malformed(long offset, String what) {
    return new SortIOException("read", name, what + " at byte offset " + offset);
  }

  /** The buffer holding the current record. */
  @Override
  public ByteBuffer buffer() {
    return view;
  }

  /** The current record's first byte in {@link #buffer()}. */
  @Override
  public int start() {
    return start;
  }

  /** The current record's length, without its delimiter or length prefix. */
  @Override
  public int length() {
    return length;
  }

  /** The current record's number, from 1 (GNU's line number). */
  public long number() {
    return number;
  }

  /** {@link #number()}. */
  @Override
  public long position() {
    return number;
  }

  /** Bytes read from the stream so far (some may not have been handed out as records yet). */
  public long bytesRead() {
    return bytesRead;
  }

  /** The input's name as errors give it. */
  public Path name() {
    return name;
  }

  @Override
  public void close() throws SortIOException {
    try {
      in.close();
    } catch (IOException e) {
      throw new SortIOException("close", name, SortIOException.reasonOf(e), e);
    }
  }
}
