package dev.joule.core.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.testing.ArenaLeakExtension;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class RecordArenaTest {
  @Test
  void slabsAndWindowsAre4096Aligned() {
    try (RecordArena arena = RecordArena.allocate(5 * 4096 + 1, 2 * 4096)) {
      assertEquals(3, arena.slabCount());
      assertEquals(2 * 4096, arena.slabCapacity(0));
      assertEquals(2 * 4096, arena.slabCapacity(2), "6 pages rounded up from 5 pages + 1 byte");
      for (int s = 0; s < arena.slabCount(); s++) {
        ByteBuffer w = arena.writableWindow(s, 4096, 4096);
        assertTrue(w.isDirect());
        assertEquals(0, w.alignmentOffset(0, 4096), "slab " + s + " window address");
        assertEquals(0, w.position());
        assertEquals(4096, w.limit());
      }
      assertThrows(IndexOutOfBoundsException.class, () -> arena.writableWindow(0, 100, 10));
      assertThrows(IndexOutOfBoundsException.class, () -> arena.writableWindow(0, 4096, 4097));
    }
  }

  /** Planners count an arena before making it: the static figure is the made arena's. */
  @Test
  void directBytesIsKnownBeforeTheArenaIsMade() {
    long[][] cases = {
      {1, 4096}, {4096, 4096}, {4097, 4096}, {5 * 4096 + 1, 2 * 4096}, {100_000, 1 << 16}
    };
    for (long[] c : cases) {
      try (RecordArena a = RecordArena.reserve(c[0], (int) c[1])) {
        assertEquals(
            a.directBytes(),
            RecordArena.directBytes(c[0], (int) c[1]),
            c[0] + " bytes in slabs of " + c[1]);
      }
    }
  }

  @Test
  void aReservedArenaAllocatesItsSlabsInOrderAndCountsThemAllFromTheStart() {
    long eager;
    try (RecordArena a = RecordArena.allocate(5 * 4096 + 1, 2 * 4096)) {
      eager = a.directBytes();
    }
    long live = ArenaTracker.liveDirectBytes();
    try (RecordArena arena = RecordArena.reserve(5 * 4096 + 1, 2 * 4096)) {
      assertEquals(eager, arena.directBytes(), "the reservation is what the slabs will take");
      assertEquals(live + eager, ArenaTracker.liveDirectBytes());
      assertEquals(3, arena.slabCount());
      assertEquals(0, arena.allocatedSlabs());
      assertEquals(6 * 4096, arena.capacity());
      assertThrows(IllegalStateException.class, () -> arena.writableWindow(0, 0, 4096));
      assertThrows(IllegalStateException.class, () -> arena.view().slab(0));
      assertThrows(IllegalStateException.class, () -> arena.allocateSlab(1), "out of order");
      arena.allocateSlab(0);
      assertEquals(1, arena.allocatedSlabs());
      arena.writableWindow(0, 4096, 4096).putInt(0, 42);
      arena.setFilled(0, 8192);
      assertEquals(42, arena.view().slab(0).getInt(4096));
      assertThrows(IllegalStateException.class, () -> arena.setFilled(1, 1));
      arena.allocateSlab(1);
      arena.allocateSlab(2);
      assertEquals(2 * 4096, arena.view().slab(2).capacity());
      assertThrows(IllegalStateException.class, () -> arena.allocateSlab(3));
    }
    assertEquals(live, ArenaTracker.liveDirectBytes());
  }

  @Test
  void windowsWriteTheSlabAndFilledCountsAreKept() {
    try (RecordArena arena = RecordArena.allocate(3 * 4096, 4096)) {
      ByteBuffer w = arena.writableWindow(1, 0, 4096);
      w.putLong(0x0102030405060708L);
      arena.setFilled(1, 8);
      assertEquals(8, arena.filled(1));
      assertEquals(8, arena.filledBytes());
      assertEquals(0x0102030405060708L, arena.view().slab(1).getLong(0));
      assertTrue(arena.view().slab(1).isReadOnly());
      arena.clear();
      assertEquals(0, arena.filledBytes());
      assertThrows(IllegalArgumentException.class, () -> arena.setFilled(0, 4097));
    }
  }

  @Test
  void defaultSlabsAreAtMostOneGibAndDirectBytesAreAccounted() {
    long before = ArenaTracker.liveDirectBytes();
    try (RecordArena arena = RecordArena.allocate(10_000)) {
      assertEquals(1, arena.slabCount());
      assertEquals(3 * 4096, arena.capacity());
      assertEquals(4 * 4096, arena.directBytes(), "capacity plus 4096 alignment slack");
      assertEquals(before + arena.directBytes(), ArenaTracker.liveDirectBytes());
    }
    assertEquals(before, ArenaTracker.liveDirectBytes());
    assertThrows(IllegalArgumentException.class, () -> RecordArena.allocate(4096, 4096 + 1));
    assertThrows(
        IllegalArgumentException.class,
        () -> RecordArena.allocate(4096, RecordArena.MAX_SLAB_BYTES + 4096));
  }

  @Test
  void closeIsIdempotentAndLaterUseFailsAtOnce() {
    RecordArena arena = RecordArena.allocate(4096);
    ArenaView view = arena.view();
    arena.close();
    arena.close();
    assertTrue(arena.isClosed());
    assertEquals(0, arena.directBytes());
    assertThrows(IllegalStateException.class, () -> arena.writableWindow(0, 0, 1));
    assertThrows(IllegalStateException.class, () -> arena.setFilled(0, 0));
    assertThrows(IllegalStateException.class, arena::clear);
    assertThrows(IllegalStateException.class, arena::view);
    assertThrows(IllegalStateException.class, () -> view.slab(0));
    assertThrows(IllegalStateException.class, () -> view.filled(0));
  }

  @Test
  void viewsCannotClose() {
    assertFalse(AutoCloseable.class.isAssignableFrom(ArenaView.class));
    assertTrue(
        Arrays.stream(ArenaView.class.getMethods())
            .map(Method::getName)
            .noneMatch("close"::equals));
  }

  @Test
  void leakExtensionReportsTheAllocationSiteAndCleansUp() {
    assertTrue(ArenaTracker.TRACKING, "tests run with -ea / -Djoule.trackMemory=true");
    RecordArena leaked = allocateAndForget();
    AssertionError e =
        assertThrows(AssertionError.class, () -> ArenaLeakExtension.checkNoLeaks("leaky test"));
    assertTrue(e.getMessage().contains("allocateAndForget"), e.getMessage());
    assertTrue(e.getMessage().contains("leaked 1 RecordArena"), e.getMessage());
    assertTrue(leaked.isClosed(), "the extension closes what leaked");
    ArenaLeakExtension.checkNoLeaks("after cleanup");
  }

  private static RecordArena allocateAndForget() {
    return RecordArena.allocate(4096);
  }

  /**
   * A growing arena's last slab moves to another arena of the same layout with its memory and bytes
   * (no fresh allocation), and only where the capacities match.
   */
  @Test
  void aDetachedSlabIsAdoptedByAnArenaOfTheSameLayout() {
    try (RecordArena from = RecordArena.reserveGrowing(16 * 4096, 4096, 4 * 4096);
        RecordArena to = RecordArena.reserveGrowing(16 * 4096, 4096, 4 * 4096)) {
      for (int s = 0; s < 3; s++) { // 1, 2 and 4 pages
        from.allocateSlab(s);
      }
      from.writableWindow(2, 0, 4096).putLong(0, 0x5EED_CAFEL);
      long live = ArenaTracker.liveDirectBytes();
      RecordArena.Slab slab = from.detachLastSlab();
      assertEquals(live + slab.reservedBytes(), ArenaTracker.liveDirectBytes(), "counted loose");
      assertEquals(2, from.allocatedSlabs());
      assertEquals(4 * 4096, slab.capacity());
      assertEquals(4 * 4096 + Alignment.BYTES, slab.reservedBytes());

      to.allocateSlab(0);
      assertFalse(to.canAdopt(1, slab), "slab 1 of the layout has 2 pages, not 4");
      assertThrows(IllegalStateException.class, () -> to.adoptSlab(1, slab));
      to.allocateSlab(1);
      assertTrue(to.canAdopt(2, slab));
      to.adoptSlab(2, slab);
      assertEquals(live, ArenaTracker.liveDirectBytes(), "counted by its new arena only");
      assertEquals(3, to.allocatedSlabs());
      assertEquals(0x5EED_CAFEL, to.writableWindow(2, 0, 4096).getLong(0), "the same memory");
      assertThrows(IllegalStateException.class, () -> to.adoptSlab(3, slab), "adopted once");
      slab.close(); // the arena owns it now: nothing to free, the arena still reads it
      assertEquals(0x5EED_CAFEL, to.writableWindow(2, 0, 4096).getLong(0));

      from.allocateSlab(2); // the layout's slab again, fresh
      assertEquals(4 * 4096, from.slabCapacity(2));
    }
  }

  /**
   * A slab taken out and never adopted outlives its arena until closed, and the leak check sees it.
   */
  @Test
  void aDetachedSlabIsALiveOwnerUntilClosed() {
    long live = ArenaTracker.liveDirectBytes();
    RecordArena.Slab slab;
    try (RecordArena arena = RecordArena.reserveGrowing(4 * 4096, 4096, 4096)) {
      arena.allocateSlab(0);
      slab = arena.detachLastSlab();
      assertEquals(0, arena.allocatedSlabs());
    }
    assertEquals(
        live + slab.reservedBytes(), ArenaTracker.liveDirectBytes(), "a leak until closed");
    slab.close();
    slab.close(); // idempotent
    assertEquals(live, ArenaTracker.liveDirectBytes());
  }
}
