package dev.joule.io.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class DataSizeTest {
  @Test
  void parsesUnitsAsPowersOf1024() {
    assertEquals(512, DataSize.parse("512").bytes());
    assertEquals(64L << 10, DataSize.parse("64k").bytes());
    assertEquals(256L << 20, DataSize.parse("256M").bytes());
    assertEquals(256L << 20, DataSize.parse("256MiB").bytes());
    assertEquals(256L << 20, DataSize.parse("256mb").bytes());
    assertEquals(2L << 30, DataSize.parse("2g").bytes());
    assertEquals(1L << 40, DataSize.parse(" 1t ").bytes());
    assertEquals(0, DataSize.parse("0").bytes());
  }

  @Test
  void rejectsGarbageWithAMessageThatTeaches() {
    for (String bad : new String[] {"", "m", "-1m", "1.5g", "12x", "g1", "99999999999999999999"}) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> DataSize.parse(bad), bad);
      assertTrue(e.getMessage().contains("'" + bad + "'"), e.getMessage());
    }
    assertThrows(IllegalArgumentException.class, () -> DataSize.parse("9000000000000p"));
  }

  @Test
  void printsTheLargestExactUnit() {
    assertEquals("4 MiB", DataSize.ofMiB(4).toString());
    assertEquals("1536 KiB", DataSize.ofKiB(1536).toString());
    assertEquals("100 B", DataSize.ofBytes(100).toString());
    assertEquals("0 B", DataSize.ofBytes(0).toString());
    assertEquals("2 GiB", DataSize.ofGiB(2).toString());
  }
}
