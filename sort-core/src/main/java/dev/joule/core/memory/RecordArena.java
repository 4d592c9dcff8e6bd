package dev.joule.core.memory;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Off-heap memory for the records of one run: a fixed set of 4096-byte aligned JDK direct {@link
 * ByteBuffer} slabs, allocated once per sort from the memory budget and reused run after run
 * ({@link #clear()} between runs).
 *
 * <p><b>Filling.</b> The I/O layer asks for {@link #writableWindow(int, int, int) aligned windows}
 * and reads a file straight into them (O_DIRECT needs the buffer address, file position and length
 * aligned to 4096; every window starts at a 4096-aligned address), then reports how many bytes of
 * the slab now hold data with {@link #setFilled(int, int)}. A record never straddles two slabs: the
 * index only takes the whole records at the start of each slab, so a writer that reads past the
 * last whole record must move the partial tail to the start of the next slab itself.
 *
 * <p><b>Layout.</b> Slabs are at most {@link #MAX_SLAB_BYTES} (1 GiB, int-indexed buffers) and at
 * most {@link #MAX_SLABS}, which is what a record address in {@code RecordIndex} can name. All
 * slabs have the same capacity except possibly the last, or, in an arena made by {@link
 * #reserveGrowing}, they double from a small first one.
 *
 * <p><b>Memory bound.</b> {@link #directBytes()}: the requested capacity rounded up to 4096 per
 * slab, plus 4096 bytes of alignment slack per slab. Nothing else is allocated after construction,
 * except by an arena made with {@link #reserve}: it allocates its slabs one by one, in order, with
 * {@link #allocateSlab}, so that the owner can fill the first while it allocates the next (a fresh
 * slab's pages are faulted in and zeroed at allocation; see docs/decisions/D21). Its {@link
 * #directBytes()} is the full reservation from the start, so an owner that counts it at creation
 * never undercounts.
 *
 * <p><b>Ownership.</b> One owner, not thread-safe for filling; concurrent <em>reads</em> through a
 * {@link #view()} are safe once filling is done (the sorter and gatherer read from several
 * threads). {@link #close()} is idempotent and drops every reference to the slabs, so any later use
 * fails at once with {@link IllegalStateException}; the slabs live in one {@link DirectRegion},
 * which gives the memory back at once on JDK 22+ (on older JDKs when the GC finds the buffers
 * unreachable). Views cannot close.
 */
public final class RecordArena implements AutoCloseable {

  /** Largest slab: ByteBuffers are int-indexed, and {@code RecordIndex} keeps 30 offset bits. */
  public static final int MAX_SLAB_BYTES = 1 << 30;

  /** Most slabs per arena: {@code RecordIndex} keeps 8 slab bits. */
  public static final int MAX_SLABS = 256;

  private final long directBytes;
  private final int slabBytes;
  private final int[] capacities;
  private final ArenaView view = new ArenaView(this);
  private final DirectRegion region; // every slab's, or null when each has its own (growing)
  private final DirectRegion[] slabRegions; // a growing arena's, so that slabs can be released
  private ByteBuffer[] slabs; // writable, BIG_ENDIAN; null once closed
  private ByteBuffer[] readers; // read-only duplicates handed to views
  private int[] filled;
  private int allocated; // slabs [0, allocated) exist

  private RecordArena(long capacityBytes, int slabBytes, boolean eager) {
    this(uniformSlabs(capacityBytes, slabBytes), slabBytes, eager, false);
  }

  private RecordArena(int[] capacities, int slabBytes, boolean eager, boolean ownRegions) {
    int n = capacities.length;
    this.slabBytes = slabBytes;
    this.slabs = new ByteBuffer[n];
    this.readers = new ByteBuffer[n];
    this.filled = new int[n];
    this.capacities = capacities;
    long reserved = 0;
    for (int i = 0; i < n; i++) {
      reserved += capacities[i] + Alignment.BYTES; // what DirectRegion reserves per buffer
    }
    this.directBytes = reserved;
    this.region = ownRegions ? null : DirectRegion.open();
    this.slabRegions = ownRegions ? new DirectRegion[n] : null;
    if (eager) {
      try {
        for (int i = 0; i < n; i++) {
          allocateSlab(i);
        }
      } catch (RuntimeException | Error e) {
        closeRegions(); // the slabs allocated before the failure
        throw e;
      }
    }
    ArenaTracker.opened(this, directBytes);
  }

  /** Caller owns the returned arena: at least {@code capacityBytes}, in slabs of up to 1 GiB. */
  public static RecordArena allocate(long capacityBytes) {
    long aligned = (capacityBytes + Alignment.BYTES - 1) / Alignment.BYTES * Alignment.BYTES;
    return new RecordArena(
        capacityBytes, (int) Math.min(MAX_SLAB_BYTES, Math.max(Alignment.BYTES, aligned)), true);
  }

  /**
   * Caller owns the returned arena: at least {@code capacityBytes}, in slabs of {@code slabBytes}
   * (a multiple of 4096, at most 1 GiB). Small slabs are for tests of slab boundaries.
   */
  public static RecordArena allocate(long capacityBytes, int slabBytes) {
    return new RecordArena(capacityBytes, slabBytes, true);
  }

  /**
   * Caller owns the returned arena: the layout of {@link #allocate(long, int)}, but no slab is
   * allocated yet; the caller allocates them in order with {@link #allocateSlab}. Until then a slab
   * has its {@link #slabCapacity} but no memory: windows, views and {@link #setFilled} of it throw
   * {@link IllegalStateException}. {@link #directBytes()} is the reservation of every slab already.
   */
  public static RecordArena reserve(long capacityBytes, int slabBytes) {
    return new RecordArena(capacityBytes, slabBytes, false);
  }

  /**
   * Caller owns the returned arena: at least {@code capacityBytes}, none allocated yet (as {@link
   * #reserve}), in slabs that start at {@code firstSlab} bytes and double up to {@code maxSlab}
   * (both multiples of 4096), so that an owner that allocates them one by one as data arrives holds
   * about twice what it was given, however little that is. Entries cannot straddle slabs: one
   * larger than a small early slab waits for a later, larger one.
   */
  public static RecordArena reserveGrowing(long capacityBytes, int firstSlab, int maxSlab) {
    long rounded = roundUp(capacityBytes);
    checkSlab(firstSlab);
    checkSlab(maxSlab);
    if (firstSlab > maxSlab) {
      throw new IllegalArgumentException("first slab " + firstSlab + " > largest " + maxSlab);
    }
    int[] caps = new int[MAX_SLABS];
    int n = 0;
    long total = 0;
    for (long next = firstSlab; total < rounded; n++) {
      if (n == MAX_SLABS) {
        throw new IllegalArgumentException(
            capacityBytes + " bytes need more than " + MAX_SLABS + " slabs of up to " + maxSlab);
      }
      caps[n] = (int) Math.min(next, rounded - total);
      total += caps[n];
      next = Math.min(maxSlab, 2 * next);
    }
    return new RecordArena(java.util.Arrays.copyOf(caps, n), maxSlab, false, true);
  }

  private static int[] uniformSlabs(long capacityBytes, int slabBytes) {
    long rounded = roundUp(capacityBytes);
    checkSlab(slabBytes);
    long count = (rounded + slabBytes - 1) / slabBytes;
    if (count > MAX_SLABS) {
      throw new IllegalArgumentException(
          capacityBytes + " bytes need " + count + " slabs of " + slabBytes + "; max " + MAX_SLABS);
    }
    int[] caps = new int[(int) count];
    for (int i = 0; i < caps.length; i++) {
      caps[i] = (int) Math.min(slabBytes, rounded - (long) i * slabBytes);
    }
    return caps;
  }

  private static long roundUp(long capacityBytes) {
    if (capacityBytes < 1) {
      throw new IllegalArgumentException("arena capacity " + capacityBytes + " must be positive");
    }
    return (capacityBytes + Alignment.BYTES - 1) / Alignment.BYTES * Alignment.BYTES;
  }

  private static void checkSlab(int slabBytes) {
    if (slabBytes < Alignment.BYTES
        || slabBytes > MAX_SLAB_BYTES
        || slabBytes % Alignment.BYTES != 0) {
      throw new IllegalArgumentException(
          "slab size " + slabBytes + " must be a multiple of 4096 in 4096.." + MAX_SLAB_BYTES);
    }
  }

  /**
   * Allocates slab {@code slab}, which must be the first not yet allocated. Its memory is zeroed on
   * this thread (that is where a fresh slab's page faults land). Hand the slab to other threads (a
   * reader, a pool task) only after this returns, through something that publishes it (a queue or a
   * task submission).
   *
   * @throws OutOfMemoryError if the JVM's direct memory limit or the OS refuses the memory; the
   *     arena stays usable with the slabs it has, and the owner still closes it
   */
  public void allocateSlab(int slab) {
    ByteBuffer[] s = slabs();
    if (slab != allocated || slab >= s.length) {
      throw new IllegalStateException(
          "slab " + slab + " requested; allocated " + allocated + " of " + s.length + " slabs");
    }
    ByteBuffer b;
    if (slabRegions != null) {
      DirectRegion r = DirectRegion.open();
      try {
        b = r.allocate(capacities[slab]);
      } catch (RuntimeException | Error e) {
        r.close();
        throw e;
      }
      slabRegions[slab] = r;
    } else {
      b = region.allocate(capacities[slab]);
    }
    s[slab] = b;
    readers[slab] = b.asReadOnlyBuffer().order(ByteOrder.BIG_ENDIAN);
    allocated++;
  }

  /**
   * Gives back the memory of slab {@code slab} alone, of an arena made by {@link #reserveGrowing}:
   * for an owner that is done with the arena but for one slab (a reader's current record), and
   * closes the arena once done with that one too. The slab's data is gone; it is not allocated
   * again.
   *
   * @throws IllegalStateException for an arena whose slabs share one region
   */
  public void releaseSlab(int slab) {
    if (slabRegions == null) {
      throw new IllegalStateException("only a growing arena releases single slabs");
    }
    if (slab < allocated) {
      closeSlab(slab);
    }
  }

  /** Closes slab {@code i}'s region (if it still has one) and forgets its buffer and fill. */
  private void closeSlab(int i) {
    if (slabRegions[i] != null) {
      slabRegions[i].close();
    }
    slabRegions[i] = null;
    slabs()[i] = null;
    readers[i] = null;
    filled[i] = 0;
  }

  /**
   * Gives back the memory of slabs {@code [from, allocatedSlabs())} of an arena made by {@link
   * #reserveGrowing} (each slab there has a region of its own), which can allocate them again
   * later; their data is gone. For an owner that keeps what is in use (the first slabs) and hands
   * the rest back to its memory manager.
   *
   * @throws IllegalStateException for an arena whose slabs share one region
   */
  public void releaseSlabsFrom(int from) {
    if (slabRegions == null) {
      throw new IllegalStateException("only a growing arena releases single slabs");
    }
    for (int i = allocated - 1; i >= Math.max(0, from); i--) {
      closeSlab(i);
      allocated = i;
    }
  }

  /**
   * Takes the last allocated slab out of this arena (made by {@link #reserveGrowing}) with its
   * memory and data, for another arena of the same layout to {@link #adoptSlab} instead of
   * allocating fresh memory; null when none is allocated. The caller owns the slab: adopt it or
   * close it.
   */
  public Slab detachLastSlab() {
    if (slabRegions == null) {
      throw new IllegalStateException("only a growing arena detaches slabs");
    }
    if (allocated == 0) {
      return null;
    }
    int i = allocated - 1;
    Slab s = new Slab(slabRegions[i], slabs()[i]);
    ArenaTracker.opened(s, s.reservedBytes()); // this arena still counts its layout's bytes
    slabRegions[i] = null; // not closed: the slab owns it now
    slabs[i] = null;
    readers[i] = null;
    filled[i] = 0;
    allocated = i;
    return s;
  }

  /** Whether {@code s} has the capacity of slab {@code slab}, the next one to allocate. */
  public boolean canAdopt(int slab, Slab s) {
    return slabRegions != null
        && slab == allocated
        && slab < capacities.length
        && capacities[slab] == s.capacity();
  }

  /**
   * Allocates slab {@code slab} (the next) with the memory of {@code s}, which this arena then
   * owns: no fresh pages, no zeroing; the slab holds whatever {@code s} held, as a cleared slab
   * does.
   *
   * @throws IllegalStateException unless {@link #canAdopt} and {@code s} is open
   */
  public void adoptSlab(int slab, Slab s) {
    if (!canAdopt(slab, s) || s.region == null) {
      throw new IllegalStateException("slab " + slab + " cannot adopt " + s);
    }
    ByteBuffer b = s.buffer.clear().order(ByteOrder.BIG_ENDIAN);
    slabRegions[slab] = s.region;
    s.region = null;
    ArenaTracker.closed(s, s.reservedBytes());
    slabs()[slab] = b;
    readers[slab] = b.asReadOnlyBuffer().order(ByteOrder.BIG_ENDIAN);
    allocated++;
  }

  /**
   * A slab's memory between two growing arenas ({@link #detachLastSlab}, {@link #adoptSlab}), or
   * given back by {@link #close()}. Not thread-safe: hand it over through something that publishes
   * it.
   */
  public static final class Slab implements AutoCloseable {
    private DirectRegion region; // null once adopted or closed
    private final ByteBuffer buffer;

    private Slab(DirectRegion region, ByteBuffer buffer) {
      this.region = region;
      this.buffer = buffer;
    }

    /** Its capacity in bytes. */
    public int capacity() {
      return buffer.capacity();
    }

    /** The bytes its memory reserves, as {@link RecordArena#directBytes()} counts a slab. */
    public long reservedBytes() {
      return (long) buffer.capacity() + Alignment.BYTES;
    }

    /** Gives the memory back, unless an arena adopted it; idempotent. */
    @Override
    public void close() {
      if (region != null) {
        region.close();
        region = null;
        ArenaTracker.closed(this, reservedBytes());
      }
    }

    @Override
    public String toString() {
      return "slab of " + capacity() + " bytes" + (region == null ? " (adopted or closed)" : "");
    }
  }

  private void closeRegions() {
    if (region != null) {
      region.close();
      return;
    }
    for (int i = 0; i < slabRegions.length; i++) {
      if (slabRegions[i] != null) {
        slabRegions[i].close();
        slabRegions[i] = null;
      }
    }
  }

  /** Slabs allocated so far (all of them unless made by {@link #reserve}). */
  public int allocatedSlabs() {
    slabs();
    return allocated;
  }

  private ByteBuffer slab(int slab) {
    ByteBuffer b = slabs()[slab];
    if (b == null) {
      throw new IllegalStateException("slab " + slab + " is not allocated yet");
    }
    return b;
  }

  private ByteBuffer[] slabs() {
    ByteBuffer[] s = slabs;
    if (s == null) {
      throw new IllegalStateException("RecordArena is closed");
    }
    return s;
  }

  /** Number of slabs. */
  public int slabCount() {
    return slabs().length;
  }

  /** Capacity of slab {@code slab} in bytes (a multiple of 4096). */
  public int slabCapacity(int slab) {
    slabs();
    return capacities[slab];
  }

  /** Capacity of every slab but possibly the last (of a growing arena: of its largest slabs). */
  public int slabBytes() {
    return slabBytes;
  }

  /** Total capacity of all slabs. */
  public long capacity() {
    slabs();
    long c = 0;
    for (int b : capacities) {
      c += b;
    }
    return c;
  }

  /**
   * A writable window on {@code [offset, offset + length)} of slab {@code slab}: position 0, limit
   * {@code length}, big-endian. {@code offset} must be a multiple of 4096, so the window's address
   * is 4096-aligned; {@code length} is free (O_DIRECT readers pass a multiple of 4096 and read an
   * unaligned file tail without DIRECT). The window borrows the arena's memory and must not be used
   * after {@link #close()} or across {@link #clear()}. Allocates one small buffer object.
   */
  public ByteBuffer writableWindow(int slab, int offset, int length) {
    ByteBuffer s = slab(slab);
    if (offset % Alignment.BYTES != 0
        || offset < 0
        || length < 0
        || offset + length > s.capacity()) {
      throw new IndexOutOfBoundsException(
          "window ["
              + offset
              + ", +"
              + length
              + ") of slab "
              + slab
              + " (capacity "
              + s.capacity()
              + "): offset must be 4096-aligned and the window inside the slab");
    }
    return s.slice(offset, length).order(ByteOrder.BIG_ENDIAN);
  }

  /** Records that bytes {@code [0, bytes)} of slab {@code slab} hold data (input order). */
  public void setFilled(int slab, int bytes) {
    ByteBuffer s = slab(slab);
    if (bytes < 0 || bytes > s.capacity()) {
      throw new IllegalArgumentException(
          "filled " + bytes + " outside 0.." + s.capacity() + " of slab " + slab);
    }
    filled[slab] = bytes;
  }

  /** Bytes of slab {@code slab} that hold data. */
  public int filled(int slab) {
    slabs();
    return filled[slab];
  }

  /** Sum of {@link #filled(int)} over all slabs. */
  public long filledBytes() {
    slabs();
    long sum = 0;
    for (int f : filled) {
      sum += f;
    }
    return sum;
  }

  /** Forgets the data (every slab empty) so the arena can take the next run; keeps the memory. */
  public void clear() {
    slabs();
    java.util.Arrays.fill(filled, 0);
  }

  /** A non-closable read view shared by the index, sorter and gatherer. */
  public ArenaView view() {
    slabs();
    return view;
  }

  /** Direct bytes this arena reserved (capacity plus alignment slack); 0 once closed. */
  public long directBytes() {
    return slabs == null ? 0 : directBytes;
  }

  /**
   * The direct bytes an arena of {@code capacityBytes} in slabs of {@code slabBytes} reserves, as
   * {@link #directBytes()} of such an arena: the capacity rounded up to 4096, plus 4096 per slab.
   * For planners that must count an arena before making it.
   */
  public static long directBytes(long capacityBytes, int slabBytes) {
    long rounded = (capacityBytes + Alignment.BYTES - 1) / Alignment.BYTES * Alignment.BYTES;
    long slabs = (rounded + slabBytes - 1) / slabBytes;
    return rounded + slabs * Alignment.BYTES;
  }

  /** Whether {@link #close()} was called. */
  public boolean isClosed() {
    return slabs == null;
  }

  ByteBuffer reader(int slab) {
    ByteBuffer[] r = readers;
    if (r == null) {
      throw new IllegalStateException("RecordArena is closed");
    }
    ByteBuffer b = r[slab];
    if (b == null) {
      throw new IllegalStateException("slab " + slab + " is not allocated yet");
    }
    return b;
  }

  /** Frees the slabs (see {@link DirectRegion}); idempotent. Later use of arena or views throws. */
  @Override
  public void close() {
    if (slabs == null) {
      return;
    }
    slabs = null;
    readers = null;
    filled = null;
    closeRegions();
    ArenaTracker.closed(this, directBytes);
  }

  @Override
  public String toString() {
    return "RecordArena@"
        + Integer.toHexString(System.identityHashCode(this))
        + "("
        + directBytes
        + " direct bytes"
        + (slabs == null ? ", closed)" : ")");
  }
}
