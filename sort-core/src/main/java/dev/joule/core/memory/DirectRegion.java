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
 * sort (measured in docs/design.md, "Resident memory" and D18). On JDK 22 and later a region is a
 * shared FFM {@code java.lang.foreign.Arena}: {@code close()} frees the memory at once, and any
 * later access through a buffer of the region throws {@link IllegalStateException} instead of
 * touching freed memory. joule targets Java 17, so the FFM API is reached through method handles
 * looked up once; on JDK 17–21 (or with {@code -Djoule.directMemory=gc}) a region hands out
 * ordinary direct buffers which the GC frees once their owners drop them, as before.
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
  /** Whether this JVM frees regions eagerly (FFM available and not disabled). */
  public static final boolean EAGER = Ffm.HANDLES != null;

  private static final Queue<Object> UNRELEASED = new ConcurrentLinkedQueue<>();

  private final Object arena; // java.lang.foreign.Arena, or null in GC mode
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
      b = ByteBuffer.allocateDirect(size + Alignment.BYTES).alignedSlice(Alignment.BYTES);
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
