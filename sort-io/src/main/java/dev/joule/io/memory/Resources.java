package dev.joule.io.memory;

import dev.joule.core.index.RecordIndex;
import dev.joule.core.memory.DirectRegion;
import dev.joule.core.memory.RecordArena;
import dev.joule.io.block.BlockPool;
import dev.joule.io.fs.Failures;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Everything one sort (or one phase) opened, closed in reverse order of opening: arenas, pools,
 * writers, readers, files, sorters. The off-heap memory it allocates ({@link #arena}, {@link
 * #pool}) is counted in its {@link MemoryMeter} until closed. Closing attempts every resource; the
 * first failure propagates, or is attached to the failure already propagating ({@link
 * #closeAfterFailure}); see {@link Failures}.
 *
 * <p>Not thread-safe: the thread that drives the sort or phase owns it.
 */
public final class Resources implements AutoCloseable {
  private final Deque<AutoCloseable> open = new ArrayDeque<>();
  private final MemoryMeter meter;

  /** An empty set whose allocations are counted in {@code meter}. */
  public Resources(MemoryMeter meter) {
    this.meter = meter;
  }

  /** Registers {@code resource} to be closed with the others; returns it. */
  public <T extends AutoCloseable> T add(T resource) {
    open.push(resource);
    return resource;
  }

  /** A new arena of at least {@code capacity} bytes in slabs of {@code slabBytes}, registered. */
  public RecordArena arena(long capacity, int slabBytes) {
    return register(RecordArena.allocate(capacity, slabBytes));
  }

  /**
   * A new arena of at least {@code capacity} bytes in slabs of {@code slabBytes}, none allocated
   * yet ({@link RecordArena#reserve}), registered and counted in full from now on: the meter's peak
   * is then the same as for {@link #arena}, reached before the memory is.
   */
  public RecordArena reservedArena(long capacity, int slabBytes) {
    return register(RecordArena.reserve(capacity, slabBytes));
  }

  private RecordArena register(RecordArena a) {
    long bytes = a.directBytes();
    meter.allocated(bytes);
    open.push(
        () -> {
          a.close();
          meter.freed(bytes);
        });
    return a;
  }

  /** A new pool of {@code count} aligned buffers of {@code size} bytes, registered. */
  public BlockPool pool(int count, int size) {
    BlockPool p = new BlockPool(count, size);
    long bytes = DirectRegion.bytesFor(count, size);
    meter.allocated(bytes);
    open.push(
        () -> {
          meter.freed(bytes);
          p.close();
        });
    return p;
  }

  /**
   * A new index of {@code capacity} entries, counted in the meter as {@link
   * RecordIndex#BYTES_PER_ENTRY} bytes each (heap arrays, but part of the sort's budget) until this
   * set closes.
   */
  public RecordIndex index(int capacity) {
    RecordIndex i = RecordIndex.allocate(capacity);
    long bytes = (long) capacity * RecordIndex.BYTES_PER_ENTRY;
    meter.allocated(bytes);
    open.push(() -> meter.freed(bytes));
    return i;
  }

  /** The meter this set counts its allocations in. */
  public MemoryMeter meter() {
    return meter;
  }

  /** Closes everything, adding close errors to {@code primary} as suppressed; never throws. */
  public void closeAfterFailure(Throwable primary) {
    Failures.closeAllAfter(primary, drain());
  }

  /** Closes everything; the first failure is thrown after all were attempted. */
  @Override
  public void close() throws IOException {
    Failures.closeAll(drain());
  }

  private Deque<AutoCloseable> drain() {
    Deque<AutoCloseable> all = new ArrayDeque<>(open);
    open.clear();
    return all;
  }
}
