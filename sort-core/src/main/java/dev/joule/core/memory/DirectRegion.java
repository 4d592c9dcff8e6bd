package dev.joule.core.memory;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Locale;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Off-heap memory with one owner, handed out as 4096-aligned direct buffers and given back to the
 * operating system all at once by {@link #close()}.
 *
 * <p><b>Why.</b> JDK direct buffers ({@code ByteBuffer.allocateDirect}) are freed only when the
 * garbage collector finds them unreachable. A sort allocates hundreds of MiB of them and then drops
 * them; with a large heap and little garbage no collection may come for minutes, so an embedding
 * platform running sort after sort saw its resident memory grow by the budget of every finished
 * sort (measured in docs/design.md, "Resident memory" and D18), and a thousand small sessions in a
 * row grew it from 125 to 455 MB on JDK 17 before the collector caught up. So a region frees its
 * memory when it is closed, in one of two ways:
 *
 * <ul>
 *   <li>on JDK 22 and later a region is a shared FFM {@code java.lang.foreign.Arena}: {@code
 *       close()} frees the memory at once, and any later access through a buffer of the region
 *       throws {@link IllegalStateException} instead of touching freed memory (the checked way);
 *   <li>on JDK 17–21 a region hands out ordinary direct buffers and runs their cleaners when it
 *       closes ({@code sun.misc.Unsafe.invokeCleaner}, the JDK's own deallocator, which Netty and
 *       Lucene's MMapDirectory use likewise): the memory is freed at once, unchecked, so an owner
 *       must never let a buffer be used after it closed the region (every owner here joins its I/O
 *       threads first; the JDK 22+ run of the same tests would throw where that is broken).
 * </ul>
 *
 * joule targets Java 17, so both are reached through method handles looked up once. With {@code
 * -Djoule.directMemory=gc} regions hand out ordinary direct buffers which the GC frees once their
 * owners drop them, as before (never reading freed memory, at the price of resident memory).
 *
 * <p><b>Failure to free.</b> A shared arena refuses to close while a thread holds it (a {@code
 * FileChannel} read or write in progress into one of its buffers). Owners close regions after
 * joining their I/O threads, so that would be a bug elsewhere; rather than leak the memory for the
 * life of the process, such an arena is kept in a queue and closed by the next {@link #open()} or
 * {@link #close()} of any region (no thread of its own: a library must not leave one running).
 *
 * <p>Thread-safe; buffers are independent views (each caller gets its own position and limit).
 */
public final class DirectRegion implements AutoCloseable {
  /** Whether this JVM frees regions eagerly and checked (FFM available and not disabled). */
  public static final boolean EAGER = Ffm.HANDLES != null;

  /** Whether regions free their buffers at close by running their cleaners (JDK 17–21). */
  public static final boolean CLEANS = !EAGER && Cleaners.INVOKE != null;

  private static final Queue<Object> UNRELEASED = new ConcurrentLinkedQueue<>();

  private final Object arena; // java.lang.foreign.Arena, or null in GC mode
  private final java.util.List<ByteBuffer> bases = new java.util.ArrayList<>(); // CLEANS: to free
  private long reserved;
  private boolean closed;

  private DirectRegion() {
    retryUnreleased();
    this.arena = EAGER ? Ffm.HANDLES.openArena() : null;
  }

  /** A new, empty region; the caller owns it and must close it. */
  public static DirectRegion open() {
    return new DirectRegion();
  }

  /**
   * A zeroed, 4096-aligned, big-endian direct buffer of exactly {@code size} bytes (capacity),
   * valid until {@link #close()}.
   *
   * @throws OutOfMemoryError if the JVM's direct memory limit or the OS refuses the memory
   */
  @SuppressForbidden("a region owns its buffers: an allocation site of off-heap memory")
  public synchronized ByteBuffer allocate(int size) {
    if (closed) {
      throw new IllegalStateException("direct region is closed");
    }
    if (size <= 0 || size % Alignment.BYTES != 0) {
      throw new IllegalArgumentException(
          "buffer size must be a positive multiple of " + Alignment.BYTES + ": " + size);
    }
    ByteBuffer b;
    if (arena != null) {
      b = Ffm.HANDLES.allocate(arena, size);
    } else {
      ByteBuffer base = ByteBuffer.allocateDirect(size + Alignment.BYTES);
      if (CLEANS) {
        bases.add(base);
      }
      b = base.alignedSlice(Alignment.BYTES);
      b.limit(size);
      b = b.slice();
    }
    reserved += bytesFor(1, size);
    return b.order(ByteOrder.BIG_ENDIAN);
  }

  /**
   * The bytes {@code buffers} buffers of {@code size} bytes reserve, as {@link #reservedBytes()}
   * counts them: each buffer and 4096 bytes of alignment slack. Memory budgets count pools by it,
   * so that what a plan counts is what a sort is charged.
   */
  public static long bytesFor(int buffers, int size) {
    return (long) buffers * ((long) size + Alignment.BYTES);
  }

  /** Bytes reserved so far, counting 4096 bytes of alignment slack per buffer; 0 once closed. */
  public synchronized long reservedBytes() {
    return closed ? 0 : reserved;
  }

  /**
   * Frees every buffer of the region (eagerly on JDK 22+, see the class comment). Idempotent; no
   * buffer of the region may be used afterwards.
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (arena != null && !Ffm.HANDLES.tryClose(arena)) {
      UNRELEASED.add(arena);
    }
    for (ByteBuffer base : bases) {
      Cleaners.clean(base);
    }
    bases.clear();
    retryUnreleased();
  }

  /** Arenas whose close was refused and is still pending (0 unless an owner misbehaved). */
  public static int unreleasedCount() {
    return UNRELEASED.size();
  }

  private static void retryUnreleased() {
    for (int n = UNRELEASED.size(); n > 0; n--) {
      Object a = UNRELEASED.poll();
      if (a == null) {
        return;
      }
      if (!Ffm.HANDLES.tryClose(a)) {
        UNRELEASED.add(a);
      }
    }
  }

  /** Whether {@link #close()} was called. */
  public synchronized boolean isClosed() {
    return closed;
  }

  /**
   * The JDK's deallocator of a direct buffer, {@code sun.misc.Unsafe.invokeCleaner} (JDK 9+, in the
   * {@code jdk.unsupported} module), bound to the unsafe instance; null where it is missing or
   * {@code -Djoule.directMemory=gc} says to leave buffers to the collector.
   */
  private static final class Cleaners {
    static final MethodHandle INVOKE = lookup();

    private static MethodHandle lookup() {
      String mode = System.getProperty("joule.directMemory", "auto").toLowerCase(Locale.ROOT);
      if (mode.equals("gc")) {
        return null;
      }
      try {
        Class<?> type = Class.forName("sun.misc.Unsafe");
        java.lang.reflect.Field f = type.getDeclaredField("theUnsafe");
        f.setAccessible(true);
        return MethodHandles.publicLookup()
            .findVirtual(type, "invokeCleaner", MethodType.methodType(void.class, ByteBuffer.class))
            .bindTo(f.get(null));
      } catch (ReflectiveOperationException | RuntimeException e) {
        return null; // no jdk.unsupported: buffers go back when the collector finds them
      }
    }

    static void clean(ByteBuffer base) {
      try {
        INVOKE.invokeExact(base);
      } catch (Throwable t) {
        throw Ffm.rethrow(t);
      }
    }
  }

  /** The four FFM entry points a region needs, or {@code null} where FFM is missing or off. */
  private static final class Ffm {
    static final Ffm HANDLES = lookup();

    private final MethodHandle ofShared;
    private final MethodHandle allocate;
    private final MethodHandle asByteBuffer;
    private final MethodHandle close;

    private Ffm(
        MethodHandle ofShared,
        MethodHandle allocate,
        MethodHandle asByteBuffer,
        MethodHandle close) {
      this.ofShared = ofShared;
      this.allocate = allocate;
      this.asByteBuffer = asByteBuffer;
      this.close = close;
    }

    private static Ffm lookup() {
      String mode = System.getProperty("joule.directMemory", "auto").toLowerCase(Locale.ROOT);
      // The FFM API is final from JDK 22 (JEP 454); before that it is a preview or incubator API.
      if (mode.equals("gc") || Runtime.version().feature() < 22) {
        return null;
      }
      try {
        Class<?> arena = Class.forName("java.lang.foreign.Arena");
        Class<?> segment = Class.forName("java.lang.foreign.MemorySegment");
        MethodHandles.Lookup l = MethodHandles.publicLookup();
        return new Ffm(
            l.findStatic(arena, "ofShared", MethodType.methodType(arena)),
            l.findVirtual(
                arena, "allocate", MethodType.methodType(segment, long.class, long.class)),
            l.findVirtual(segment, "asByteBuffer", MethodType.methodType(ByteBuffer.class)),
            l.findVirtual(arena, "close", MethodType.methodType(void.class)));
      } catch (ReflectiveOperationException e) {
        throw new ExceptionInInitializerError(e);
      }
    }

    Object openArena() {
      try {
        return ofShared.invoke();
      } catch (Throwable t) {
        throw rethrow(t);
      }
    }

    ByteBuffer allocate(Object arena, int size) {
      try {
        Object segment = allocate.invoke(arena, (long) size, (long) Alignment.BYTES);
        return (ByteBuffer) asByteBuffer.invoke(segment);
      } catch (Throwable t) {
        throw rethrow(t);
      }
    }

    /** False when a thread still holds the arena (an I/O call into one of its buffers). */
    boolean tryClose(Object arena) {
      try {
        close.invoke(arena);
        return true;
      } catch (IllegalStateException stillAcquired) {
        return false;
      } catch (Throwable t) {
        throw rethrow(t);
      }
    }

    private static RuntimeException rethrow(Throwable t) {
      if (t instanceof RuntimeException re) {
        return re;
      }
      if (t instanceof Error e) {
        throw e;
      }
      return new IllegalStateException(t);
    }
  }
}
