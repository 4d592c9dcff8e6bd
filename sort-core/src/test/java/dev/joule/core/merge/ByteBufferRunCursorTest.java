package dev.joule.core.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.core.index.KeyPrefix;
import dev.joule.core.record.FixedLengthFormat;
import dev.joule.core.record.KeySpec;
import dev.joule.core.record.RecordFormat;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

class ByteBufferRunCursorTest {
  private static final FixedLengthFormat FORMAT = RecordFormat.fixed(4, KeySpec.bytes(1, 2));

  private static ByteBuffer records(int n, int lead) {
    ByteBuffer buf = ByteBuffer.allocate(lead + 4 * n);
    for (int i = 0; i < n; i++) {
      buf.put(lead + 4 * i + 2, (byte) i);
    }
    return buf.position(lead);
  }

  @Test
  void walksTheRangeFromTheBuffersPosition() {
    ByteBuffer buf = records(5, 3);
    RunCursor c = new ByteBufferRunCursor(buf, FORMAT, 1, 4);
    for (int i = 1; i < 4; i++) {
      assertTrue(c.advance());
      assertEquals(3 + 4 * i, c.position());
      assertEquals(KeyPrefix.of(buf, c.position() + 1, 2), c.prefix());
      assertEquals((long) i << 48, c.prefix());
    }
    assertFalse(c.advance());
    assertFalse(c.advance(), "exhaustion is sticky");
    assertEquals(3, buf.position(), "the cursor never moves the buffer's position");
    assertEquals(4, c.recordLength());
    assertEquals(c.position() + 1, c.keyPosition());
    assertEquals(c.position(), c.recordPosition());
    assertEquals(2, c.keyLength());
  }

  @Test
  void emptyRangeAndBadRanges() {
    ByteBuffer buf = records(5, 0);
    assertFalse(new ByteBufferRunCursor(buf, FORMAT, 5, 5).advance());
    assertFalse(new ByteBufferRunCursor(buf, FORMAT, 2, 2).advance());
    assertThrows(IndexOutOfBoundsException.class, () -> new ByteBufferRunCursor(buf, FORMAT, 3, 2));
    assertThrows(IndexOutOfBoundsException.class, () -> new ByteBufferRunCursor(buf, FORMAT, 0, 6));
    assertThrows(
        IllegalArgumentException.class,
        () -> new ByteBufferRunCursor(ByteBuffer.allocate(7), FORMAT));
  }
}
