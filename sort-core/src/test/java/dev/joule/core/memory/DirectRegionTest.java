package dev.joule.core.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

class DirectRegionTest {
  private static final boolean FFM = Runtime.version().feature() >= 22;

  @Test
  void buffersAreAlignedZeroedBigEndianAndOfTheAskedSize() {
    try (DirectRegion r = DirectRegion.open()) {
      for (int size : new int[] {4096, 3 * 4096, 1 << 20}) {
        ByteBuffer b = r.allocate(size);
        assertTrue(b.isDirect());
        assertEquals(size, b.capacity());
        assertEquals(0, b.position());
        assertEquals(ByteOrder.BIG_ENDIAN, b.order());
        assertEquals(0, b.alignmentOffset(0, 4096), "4096-aligned");
        for (int i = 0; i < size; i += 4093) {
          assertEquals(0, b.get(i));
        }
        b.putLong(size - 8, 0x0102030405060708L);
        assertEquals(1, b.get(size - 8));
      }
      assertEquals(4096 + 3 * 4096 + (1 << 20) + 3 * 4096, r.reservedBytes());
      assertEquals(
          DirectRegion.bytesFor(1, 4096)
              + DirectRegion.bytesFor(1, 3 * 4096)
              + DirectRegion.bytesFor(1, 1 << 20),
          r.reservedBytes(),
          "what budgets count for the same buffers");
    }
  }

  @Test
  void eagerOnlyWhereTheFfmApiIsFinal() {
    assertEquals(FFM, DirectRegion.EAGER);
  }

  /** On JDK 22+ the memory is back at close, without a GC; a stale buffer fails, never reads. */
  @Test
  void closeFreesAtOnceAndStaleBuffersFailOnJdk22() {
    DirectRegion r = DirectRegion.open();
    ByteBuffer b = r.allocate(64 << 20);
    ByteBuffer view = b.asReadOnlyBuffer();
    b.putInt(0, 42);
    r.close();
    r.close(); // idempotent
    assertTrue(r.isClosed());
    assertEquals(0, r.reservedBytes());
    assertThrows(IllegalStateException.class, () -> r.allocate(4096));
    if (FFM) {
      // The arena is closed (its memory unmapped): every view of it refuses access. That the
      // bytes leave the process's direct memory at once is MemoryBoundTest's check.
      assertThrows(IllegalStateException.class, () -> b.getInt(0));
      assertThrows(IllegalStateException.class, () -> view.getInt(0));
    }
    assertEquals(0, DirectRegion.unreleasedCount());
  }

  @Test
  void refusesSizesThatAreNotWholePages() {
    try (DirectRegion r = DirectRegion.open()) {
      assertThrows(IllegalArgumentException.class, () -> r.allocate(0));
      assertThrows(IllegalArgumentException.class, () -> r.allocate(4095));
      assertThrows(IllegalArgumentException.class, () -> r.allocate(-4096));
    }
  }
}
