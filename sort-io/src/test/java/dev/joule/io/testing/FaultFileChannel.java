package dev.joule.io.testing;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;

/**
 * A {@link FileChannel} of the fault layer: counts, logs and may fail or shorten every transfer and
 * force. Positional and relative transfers both go through the same fault logic.
 */
public final class FaultFileChannel extends FileChannel {
  private static final int DIRECT_UNIT = 4096;

  private final FaultFileSystemProvider faults;
  final Path path;
  private final FileChannel delegate;
  private final boolean direct;

  FaultFileChannel(
      FaultFileSystemProvider faults, Path path, FileChannel delegate, boolean direct) {
    this.faults = faults;
    this.path = path;
    this.delegate = delegate;
    this.direct = direct;
    faults.opened(this);
  }

  private int unit() {
    return direct ? DIRECT_UNIT : 1;
  }

  private int read(ByteBuffer dst, long position, boolean positional) throws IOException {
    faults.op(FaultOp.READ, path);
    faults.beforeTransfer(FaultOp.READ, path, positional ? position : delegate.position());
    int n = faults.shortLength(dst.remaining(), unit());
    int limit = dst.limit();
    dst.limit(dst.position() + n);
    try {
      return positional ? delegate.read(dst, position) : delegate.read(dst);
    } finally {
      dst.limit(limit);
    }
  }

  private int write(ByteBuffer src, long position, boolean positional) throws IOException {
    faults.op(FaultOp.WRITE, path);
    faults.beforeTransfer(FaultOp.WRITE, path, positional ? position : delegate.position());
    int want = faults.shortLength(src.remaining(), unit());
    long room = faults.reserveWrite(want);
    boolean full = room < want;
    int n = (int) room;
    if (direct) {
      n -= n % DIRECT_UNIT;
    }
    int written = 0;
    if (n > 0) {
      int limit = src.limit();
      src.limit(src.position() + n);
      try {
        written = positional ? delegate.write(src, position) : delegate.write(src);
      } finally {
        src.limit(limit);
      }
      faults.wrote(written);
    }
    if (full) {
      faults.markFault();
      throw new IOException(FaultFileSystemProvider.ENOSPC);
    }
    return written;
  }

  @Override
  public int read(ByteBuffer dst) throws IOException {
    return read(dst, -1, false);
  }

  @Override
  public int read(ByteBuffer dst, long position) throws IOException {
    return read(dst, position, true);
  }

  @Override
  public int write(ByteBuffer src) throws IOException {
    return write(src, -1, false);
  }

  @Override
  public int write(ByteBuffer src, long position) throws IOException {
    return write(src, position, true);
  }

  @Override
  public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
    long total = 0;
    for (int i = offset; i < offset + length; i++) {
      if (dsts[i].hasRemaining()) {
        int n = read(dsts[i]);
        if (n < 0) {
          return total == 0 ? -1 : total;
        }
        total += n;
        if (dsts[i].hasRemaining()) {
          break;
        }
      }
    }
    return total;
  }

  @Override
  public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
    long total = 0;
    for (int i = offset; i < offset + length; i++) {
      total += write(srcs[i]);
      if (srcs[i].hasRemaining()) {
        break;
      }
    }
    return total;
  }

  @Override
  public long position() throws IOException {
    return delegate.position();
  }

  @Override
  public FileChannel position(long newPosition) throws IOException {
    delegate.position(newPosition);
    return this;
  }

  @Override
  public long size() throws IOException {
    return delegate.size();
  }

  @Override
  public FileChannel truncate(long size) throws IOException {
    delegate.truncate(size);
    return this;
  }

  @Override
  public void force(boolean metaData) throws IOException {
    faults.op(FaultOp.FORCE, path);
    delegate.force(metaData);
  }

  @Override
  public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
    throw new UnsupportedOperationException("the fault layer does not do transferTo");
  }

  @Override
  public long transferFrom(ReadableByteChannel src, long position, long count) throws IOException {
    throw new UnsupportedOperationException("the fault layer does not do transferFrom");
  }

  @Override
  public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
    throw new UnsupportedOperationException("the fault layer does not map files");
  }

  @Override
  public FileLock lock(long position, long size, boolean shared) throws IOException {
    return delegate.lock(position, size, shared);
  }

  @Override
  public FileLock tryLock(long position, long size, boolean shared) throws IOException {
    return delegate.tryLock(position, size, shared);
  }

  @Override
  protected void implCloseChannel() throws IOException {
    faults.closed(this);
    delegate.close();
  }
}
