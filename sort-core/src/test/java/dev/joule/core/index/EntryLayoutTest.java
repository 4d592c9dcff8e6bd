package dev.joule.core.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The TAIL shape: a stored key that ends with the record, which the entry does not repeat. */
class EntryLayoutTest {

  /** | u32 record length | u32 key length | key |, the record being the key's last bytes. */
  @Test
  void aTailEntryReadsItsRecordFromTheKeysEnd() {
    EntryLayout tail = EntryLayout.tail(0);
    byte[] record = "b,12".getBytes(StandardCharsets.US_ASCII);
    byte[] key = {(byte) 0x82, 0x23, 'b', ',', '1', '2'}; // a code, then the record raw
    assertEquals(8 + key.length, tail.entryLength(record.length, key.length));
    ByteBuffer b = ByteBuffer.allocate(3 + tail.entryLength(record.length, key.length));
    int p = tail.writeHeader(b, 3, record.length, key.length);
    assertEquals(3 + 8, p);
    assertEquals(p, tail.keyStart(3));
    b.put(p, key);
    assertEquals(record.length, tail.recordLength(b, 3));
    assertEquals(key.length, tail.keyLength(b, 3));
    assertEquals(b.capacity() - 3, tail.entryLength(b, 3));
    assertEquals(ByteBuffer.wrap(record), b.slice(tail.recordStart(b, 3), record.length));
    assertTrue(tail.storesKey());
    assertFalse(tail.fixedSize());
  }

  /** Fixed records: no record length in the header, the last recordSize key bytes. */
  @Test
  void aFixedRecordTailEntryHasOnlyTheKeyLength() {
    EntryLayout tail = EntryLayout.tail(4);
    ByteBuffer b = ByteBuffer.allocate(4 + 7);
    assertEquals(4, tail.writeHeader(b, 0, 4, 7));
    b.put(4, new byte[] {9, 9, 9, 1, 2, 3, 4});
    assertEquals(11, tail.entryLength(b, 0));
    assertEquals(4 + 3, tail.recordStart(b, 0));
    assertEquals(4, tail.recordLength(b, 0));
  }

  /** A run header's fields give the layout back; a TAIL has neither key offset nor fixed key. */
  @Test
  void theHeaderFieldsRoundTripAndLengthsAreChecked() {
    EntryLayout tail = EntryLayout.tail(0);
    assertEquals(
        tail,
        EntryLayout.of(tail.place(), tail.recordSize(), tail.keyOffset(), tail.fixedKeyLength()));
    assertThrows(
        IllegalArgumentException.class, () -> EntryLayout.of(EntryLayout.KeyPlace.TAIL, 0, 0, 8));
    assertTrue(tail.plausible(5, 5));
    assertFalse(tail.plausible(6, 5), "a record longer than the key it ends");
    assertFalse(tail.plausible(-1, 5));
    assertTrue(EntryLayout.derived(0, 0).plausible(6, 5));
    assertFalse(EntryLayout.derived(0, 0).plausible(0, EntryLayout.MAX_RECORD_LENGTH + 1));
  }
}
