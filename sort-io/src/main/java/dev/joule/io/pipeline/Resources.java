package dev.joule.io.pipeline;

import dev.joule.core.memory.RecordArena;
import dev.joule.io.block.BlockPool;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Everything one sort (or one phase) opened, closed in reverse order of opening: arenas, pools,
 * writers, readers, files, sorters. The first close error propagates (or is suppressed into the
 * failure that is already propagating); every resource is attempted. Not thread-safe: the sort's
 * driving thread owns it.
 */
final class Resources implements AutoCloseable {
  private final Deque<AutoCloseable> open = new ArrayDeque<>();
  private final MemoryMeter meter;

  Resources(MemoryMeter meter) {
    this.meter = meter;
  }

  <T extends AutoCloseable> T add(T resource) {
    open.push(resource);
    return resource;
  }

  RecordArena arena(long capacity, int slabBytes) {
    RecordArena a = RecordArena.allocate(capacity, slabBytes);
    long bytes = a.directBytes();
    meter.allocated(bytes);
    open.push(
        () -> {
          a.close();
          meter.freed(bytes);
        });
    return a;
  }

  BlockPool pool(int count, int size) {
    BlockPool p = new BlockPool(count, size);
    long bytes = (long) count * (size + 4096L);
    meter.allocated(bytes);
    open.push(
        () -> {
          meter.freed(bytes);
          p.close();
        });
    return p;
  }

  /** Closes {@code r} now (it was added earlier) and forgets it. */
  void closeNow(AutoCloseable r) throws Exception {
    open.remove(r);
    r.close();
  }

  /** Closes everything, adding close errors to {@code primary} as suppressed. */
  void closeAfterFailure(Throwable primary) {
    while (!open.isEmpty()) {
      try {
        open.pop().close();
      } catch (Exception | Error e) {
        if (e != primary) {
          primary.addSuppressed(e);
        }
      }
    }
  }

  @Override
  public void close() throws Exception {
    Exception first = null;
    while (!open.isEmpty()) {
      try {
        open.pop().close();
      } catch (Exception e) {
        if (first == null) {
          first = e;
        } else {
          first.addSuppressed(e);
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }
}
