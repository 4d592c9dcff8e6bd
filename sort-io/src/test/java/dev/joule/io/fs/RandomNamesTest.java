package dev.joule.io.fs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class RandomNamesTest {
  /** Version 4 UUIDs, as UUID.randomUUID makes them, and no two alike. */
  @Test
  void uuidsAreVersionFourAndDistinct() {
    Set<String> seen = new HashSet<>();
    int[] ones = new int[128];
    int n = 2000;
    for (int i = 0; i < n; i++) {
      String s = RandomNames.uuid();
      UUID u = UUID.fromString(s);
      assertEquals(4, u.version(), s);
      assertEquals(2, u.variant(), s);
      assertEquals(s, u.toString());
      assertTrue(seen.add(s), s);
      for (int b = 0; b < 64; b++) {
        ones[b] += (int) (u.getMostSignificantBits() >>> b) & 1;
        ones[64 + b] += (int) (u.getLeastSignificantBits() >>> b) & 1;
      }
    }
    // Every bit but the six fixed ones is set in about half of the UUIDs (binomial, 2000 draws:
    // 1000 +- 7 standard deviations).
    for (int b = 0; b < 128; b++) {
      boolean fixed = (b >= 12 && b < 16) || b == 126 || b == 127; // version nibble, variant
      if (!fixed) {
        assertTrue(Math.abs(ones[b] - n / 2) < 160, "bit " + b + " set " + ones[b] + " times");
      }
    }
  }

  @Test
  void longsAreDistinct() {
    Set<Long> seen = new HashSet<>();
    for (int i = 0; i < 1000; i++) {
      assertTrue(seen.add(RandomNames.nextLong()));
    }
  }
}
