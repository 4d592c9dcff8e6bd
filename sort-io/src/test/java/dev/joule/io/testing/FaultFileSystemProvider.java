package dev.joule.io.testing;

import java.io.IOException;
import java.net.URI;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AccessMode;
import java.nio.file.CopyOption;
import java.nio.file.DirectoryStream;
import java.nio.file.FileStore;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystems;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.FileAttributeView;
import java.nio.file.spi.FileSystemProvider;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;

/**
 * A seeded, fault-injecting view of the default file system, in the style of Lucene's {@code
 * mockfile} wrappers. Paths obtained from {@link #wrap(Path)} route every operation through this
 * provider, which can:
 *
 * <ul>
 *   <li>throw an {@link IOException} ("Input/output error") at the k-th operation of a kind ({@link
 *       #failAt});
 *   <li>make reads and writes short ({@link #shortIo}): 1..n-1 bytes (whole 4096-byte units on
 *       DIRECT channels, which the JDK requires);
 *   <li>report a full disk after N bytes written in total ({@link #diskFullAfter}): the part that
 *       fits is written, then "No space left on device" is thrown;
 *   <li>refuse {@code ExtendedOpenOption.DIRECT} with "Invalid argument" ({@link #refuseDirect}),
 *       otherwise DIRECT passes through to the real provider;
 *   <li>hold a transfer on its thread before it starts ({@link #gate}): the concurrency tests meet
 *       transfers there to see which ones are in flight at once;
 *   <li>log every operation ({@link #log()}) and track open channels ({@link #openHandles()}).
 * </ul>
 *
 * <p>Thread-safe (synchronized counters). One instance per test.
 */
public final class FaultFileSystemProvider extends FileSystemProvider {
  static final String EIO = "Input/output error";
  static final String ENOSPC = "No space left on device";

  private final FileSystemProvider delegate = FileSystems.getDefault().provider();
  private final FaultFileSystem fs = new FaultFileSystem(this, FileSystems.getDefault());
  private final Random random;
  private final Map<FaultOp, Long> counts = new EnumMap<>(FaultOp.class);
  private final Map<FaultOp, Long> failAt = new EnumMap<>(FaultOp.class);
  private final List<String> log = Collections.synchronizedList(new ArrayList<>());
  // guarded by itself; identity, not equals: every channel object is one handle
  private final IdentityHashMap<FaultFileChannel, Throwable> open = new IdentityHashMap<>();
  private volatile boolean shortIo;
  private volatile boolean refuseDirect;
  private long diskFullAfter = Long.MAX_VALUE;
  private long bytesWritten;
  private volatile int faultIndex = -1;
  private volatile TransferGate gate = (op, path, position) -> {};

  /** Called before every read and write of a channel of the layer, on the transferring thread. */
  @FunctionalInterface
  public interface TransferGate {
    /**
     * A transfer of kind {@code op} (READ or WRITE) on the real file {@code path} at file offset
     * {@code position} is about to start; it starts when this returns. An exception thrown here
     * fails the transfer.
     */
    void before(FaultOp op, Path path, long position) throws IOException;
  }

  private FaultFileSystemProvider(long seed) {
    this.random = new Random(seed);
  }

  /** A fault layer with no faults armed; {@code seed} drives every random choice. */
  public static FaultFileSystemProvider create(long seed) {
    return new FaultFileSystemProvider(seed);
  }

  /** The fault-layer path for a path of the default file system. */
  public Path wrap(Path real) {
    return fs.wrap(real);
  }

  /** The default-file-system path behind a fault-layer path. */
  public static Path unwrap(Path p) {
    return FaultPath.unwrap(p);
  }

  /** Fails the {@code k}-th (1-based, counted from now) operation of kind {@code op}; 0 disarms. */
  public synchronized FaultFileSystemProvider failAt(FaultOp op, long k) {
    if (k <= 0) {
      failAt.remove(op);
    } else {
      failAt.put(op, counts.getOrDefault(op, 0L) + k);
    }
    return this;
  }

  /** Makes reads and writes transfer fewer bytes than asked, at random. */
  public FaultFileSystemProvider shortIo(boolean on) {
    shortIo = on;
    return this;
  }

  /**
   * Makes opening with DIRECT fail with "Invalid argument", as file systems without O_DIRECT do.
   */
  public FaultFileSystemProvider refuseDirect(boolean on) {
    refuseDirect = on;
    return this;
  }

  /** After {@code n} more bytes written in total, writes fail with "No space left on device". */
  public synchronized FaultFileSystemProvider diskFullAfter(long n) {
    diskFullAfter = bytesWritten + n;
    return this;
  }

  /** Calls {@code g} before every transfer from now on (it replaces the previous gate). */
  public FaultFileSystemProvider gate(TransferGate g) {
    gate = Objects.requireNonNull(g, "gate");
    return this;
  }

  /** Passes a transfer through the gate. */
  void beforeTransfer(FaultOp op, Path path, long position) throws IOException {
    gate.before(op, path, position);
  }

  /** Bytes written so far through this layer, in total. */
  public synchronized long bytesWritten() {
    return bytesWritten;
  }

  /** Operations counted so far, per kind. */
  public synchronized long count(FaultOp op) {
    return counts.getOrDefault(op, 0L);
  }

  /** Every operation so far, as {@code "<OP> <path>"} lines. */
  public List<String> log() {
    synchronized (log) {
      return new ArrayList<>(log);
    }
  }

  /** Channels opened and not closed, each with the stack trace of its opening. */
  public IdentityHashMap<FaultFileChannel, Throwable> openHandles() {
    synchronized (open) {
      return new IdentityHashMap<>(open);
    }
  }

  /** Fails if a channel is still open, with the opening stack trace as the cause. */
  public void assertNoOpenHandles() {
    IdentityHashMap<FaultFileChannel, Throwable> h = openHandles();
    if (!h.isEmpty()) {
      Map.Entry<FaultFileChannel, Throwable> e = h.entrySet().iterator().next();
      throw new AssertionError(
          h.size() + " file handles leaked, e.g. " + e.getKey().path, e.getValue());
    }
  }

  /** Counts and logs one operation; throws if it is the armed one. */
  void op(FaultOp op, Path path) throws IOException {
    long n;
    boolean fail;
    synchronized (this) {
      n = counts.merge(op, 1L, Long::sum);
      fail = failAt.containsKey(op) && failAt.get(op) == n;
    }
    log.add(op + " " + path);
    if (fail) {
      markFault();
      throw new FileSystemException(path.toString(), null, EIO);
    }
  }

  /**
   * Index in {@link #log()} of the operation at which the first fault fired (an armed failure or
   * the disk becoming full), or -1 if none has.
   */
  public int faultIndex() {
    return faultIndex;
  }

  void markFault() {
    synchronized (log) {
      if (faultIndex < 0) {
        faultIndex = log.size() - 1;
      }
    }
  }

  /** Bytes a write of {@code n} may transfer before the disk is full (n when there is room). */
  synchronized long reserveWrite(long n) {
    long room = Math.max(0, diskFullAfter - bytesWritten);
    return Math.min(n, room);
  }

  synchronized void wrote(long n) {
    bytesWritten += n;
  }

  /** A short length in {@code [1, n)} (or unit multiples on direct channels), or {@code n}. */
  int shortLength(int n, int unit) {
    if (!shortIo || n <= unit) {
      return n;
    }
    synchronized (random) {
      if (random.nextInt(4) == 0) {
        return n; // sometimes full, so that progress is fast and both paths are exercised
      }
      int units = n / unit;
      return unit * (1 + random.nextInt(units - 1 == 0 ? 1 : units - 1));
    }
  }

  void opened(FaultFileChannel ch) {
    synchronized (open) {
      open.put(ch, new Throwable("opened here: " + ch.path));
    }
  }

  void closed(FaultFileChannel ch) {
    synchronized (open) {
      open.remove(ch);
    }
  }

  @Override
  public String getScheme() {
    return "faultfs";
  }

  @Override
  public FileSystem newFileSystem(URI uri, Map<String, ?> env) {
    throw new UnsupportedOperationException();
  }

  @Override
  public FileSystem getFileSystem(URI uri) {
    return fs;
  }

  @Override
  public Path getPath(URI uri) {
    return fs.wrap(delegate.getPath(uri));
  }

  @Override
  public SeekableByteChannel newByteChannel(
      Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs) throws IOException {
    return newFileChannel(path, options, attrs);
  }

  @Override
  public FileChannel newFileChannel(
      Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs) throws IOException {
    Path real = FaultPath.unwrap(path);
    op(FaultOp.OPEN, real);
    // By name: javac 21+ warns on any compile-time use of com.sun.nio.file.ExtendedOpenOption.
    boolean direct = options.stream().anyMatch(o -> o.toString().equals("DIRECT"));
    if (direct && refuseDirect) {
      throw new FileSystemException(real.toString(), null, "Invalid argument");
    }
    FileChannel ch = delegate.newFileChannel(real, options, attrs);
    return new FaultFileChannel(this, real, ch, direct);
  }

  @Override
  public DirectoryStream<Path> newDirectoryStream(
      Path dir, DirectoryStream.Filter<? super Path> filter) throws IOException {
    DirectoryStream<Path> ds =
        delegate.newDirectoryStream(FaultPath.unwrap(dir), p -> filter.accept(fs.wrap(p)));
    return new DirectoryStream<>() {
      @Override
      public Iterator<Path> iterator() {
        Iterator<Path> it = ds.iterator();
        return new Iterator<>() {
          @Override
          public boolean hasNext() {
            return it.hasNext();
          }

          @Override
          public Path next() {
            return fs.wrap(it.next());
          }
        };
      }

      @Override
      public void close() throws IOException {
        ds.close();
      }
    };
  }

  @Override
  public void createDirectory(Path dir, FileAttribute<?>... attrs) throws IOException {
    op(FaultOp.OPEN, FaultPath.unwrap(dir));
    delegate.createDirectory(FaultPath.unwrap(dir), attrs);
  }

  @Override
  public void delete(Path path) throws IOException {
    op(FaultOp.DELETE, FaultPath.unwrap(path));
    delegate.delete(FaultPath.unwrap(path));
  }

  @Override
  public void copy(Path source, Path target, CopyOption... options) throws IOException {
    delegate.copy(FaultPath.unwrap(source), FaultPath.unwrap(target), options);
  }

  @Override
  public void move(Path source, Path target, CopyOption... options) throws IOException {
    op(FaultOp.MOVE, FaultPath.unwrap(source));
    delegate.move(FaultPath.unwrap(source), FaultPath.unwrap(target), options);
  }

  @Override
  public boolean isSameFile(Path a, Path b) throws IOException {
    return delegate.isSameFile(FaultPath.unwrap(a), FaultPath.unwrap(b));
  }

  @Override
  public boolean isHidden(Path path) throws IOException {
    return delegate.isHidden(FaultPath.unwrap(path));
  }

  @Override
  public FileStore getFileStore(Path path) throws IOException {
    return delegate.getFileStore(FaultPath.unwrap(path));
  }

  @Override
  public void checkAccess(Path path, AccessMode... modes) throws IOException {
    delegate.checkAccess(FaultPath.unwrap(path), modes);
  }

  @Override
  public <V extends FileAttributeView> V getFileAttributeView(
      Path path, Class<V> type, LinkOption... options) {
    return delegate.getFileAttributeView(FaultPath.unwrap(path), type, options);
  }

  @Override
  public <A extends BasicFileAttributes> A readAttributes(
      Path path, Class<A> type, LinkOption... options) throws IOException {
    return delegate.readAttributes(FaultPath.unwrap(path), type, options);
  }

  @Override
  public Map<String, Object> readAttributes(Path path, String attributes, LinkOption... options)
      throws IOException {
    return delegate.readAttributes(FaultPath.unwrap(path), attributes, options);
  }

  @Override
  public void setAttribute(Path path, String attribute, Object value, LinkOption... options)
      throws IOException {
    delegate.setAttribute(FaultPath.unwrap(path), attribute, value, options);
  }

  @Override
  public void createSymbolicLink(Path link, Path target, FileAttribute<?>... attrs)
      throws IOException {
    delegate.createSymbolicLink(
        FaultPath.unwrap(link),
        target instanceof FaultPath ? FaultPath.unwrap(target) : target,
        attrs);
  }

  @Override
  public void createLink(Path link, Path existing) throws IOException {
    op(FaultOp.OPEN, FaultPath.unwrap(link));
    delegate.createLink(FaultPath.unwrap(link), FaultPath.unwrap(existing));
  }

  @Override
  public Path readSymbolicLink(Path link) throws IOException {
    return fs.wrap(delegate.readSymbolicLink(FaultPath.unwrap(link)));
  }
}
