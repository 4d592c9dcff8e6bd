package dev.joule.io.pipeline;

import dev.joule.io.block.DeviceMeter;
import dev.joule.io.error.SortIOException;
import dev.joule.io.input.EntrySpec;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * Framed records into an {@link OutputStream} (standard output, a pipe, a device): gathered in one
 * heap buffer and written {@value #BUFFER} bytes at a time, so that a record costs one copy out of
 * the sort's memory and the stream a write per buffer; a record larger than the buffer is written
 * in buffer-sized pieces. A failed write is a {@link SortIOException} naming the stream, with the
 * errno text ("Broken pipe"). {@link #flush()} writes what is gathered and flushes the stream; the
 * stream is never closed here.
 *
 * <p>Memory: one {@value #BUFFER}-byte array. Not thread-safe.
 */
final class StreamSink implements EntrySpec.FramedSink {
  /** 1 MiB: the writes of a 150 MB output fall to 150, each far above a pipe's 64 KiB buffer. */
  static final int BUFFER = 1 << 20;

  private final OutputStream out;
  private final Path name;
  private final DeviceMeter meter;
  private final byte[] buf = new byte[BUFFER];
  private int used;
  private long written;

  StreamSink(OutputStream out, Path name) {
    this(out, name, DeviceMeter.NONE);
  }

  /** A sink into {@code out} whose writes {@code meter} counts (a sort's timeline). */
  StreamSink(OutputStream out, Path name, DeviceMeter meter) {
    this.out = out;
    this.name = name;
    this.meter = meter;
  }

  @Override
  public void put(ByteBuffer src, int start, int length) throws IOException {
    int done = 0;
    while (done < length) {
      if (used == buf.length) {
        drain();
      }
      int n = Math.min(buf.length - used, length - done);
      src.get(start + done, buf, used, n);
      used += n;
      done += n;
    }
  }

  @Override
  public void put(byte b) throws IOException {
    if (used == buf.length) {
      drain();
    }
    buf[used++] = b;
  }

  @Override
  public void putInt(int v) throws IOException {
    put((byte) (v >>> 24));
    put((byte) (v >>> 16));
    put((byte) (v >>> 8));
    put((byte) v);
  }

  /** Bytes handed to the sink so far. */
  long bytes() {
    return written + used;
  }

  /** Bytes handed to the stream so far (the rest is gathered, not yet written). */
  long bytesWritten() {
    return written;
  }

  /** Writes what is gathered and flushes the stream. */
  void flush() throws SortIOException {
    drain();
    try {
      out.flush();
    } catch (IOException e) {
      throw new SortIOException("write", name, SortIOException.reasonOf(e), e);
    }
  }

  private void drain() throws SortIOException {
    if (used == 0) {
      return;
    }
    long t = meter.start();
    try {
      out.write(buf, 0, used);
    } catch (IOException e) {
      meter.failed();
      throw new SortIOException("write", name, SortIOException.reasonOf(e), e);
    }
    meter.wrote(used, t);
    written += used;
    used = 0;
  }
}
