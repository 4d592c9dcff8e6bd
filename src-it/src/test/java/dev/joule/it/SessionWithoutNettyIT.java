package dev.joule.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.joule.io.config.DataSize;
import dev.joule.io.pipeline.ExternalSorter;
import dev.joule.io.pipeline.RecordCursor;
import dev.joule.io.pipeline.RecordSession;
import dev.joule.testing.TestSeed;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The push/pull API as an embedder without Netty sees it: Netty is an optional dependency of
 * sort-io, so it is not on this module's class path. That this class compiles shows that {@code
 * RecordSession.add(ByteBuffer)} needs no Netty at compile time; that it passes shows that a
 * session never loads Netty unless given a {@code ByteBuf}.
 */
class SessionWithoutNettyIT {
  @TempDir Path temp;

  @Test
  void nettyIsNotOnTheClassPath() {
    assertThrows(ClassNotFoundException.class, () -> Class.forName("io.netty.buffer.ByteBuf"));
  }

  @Test
  void sortsPushedRecordsWithoutNetty() throws Exception {
    long seed = TestSeed.of(SessionWithoutNettyIT.class, 0x5E55_1027L);
    SplittableRandom random = new SplittableRandom(seed);
    List<byte[]> records = new ArrayList<>();
    ByteBuffer in = ByteBuffer.allocate(100 * 20_000);
    for (int i = 0; i < 20_000; i++) {
      byte[] r = new byte[100];
      random.nextBytes(r);
      r[0] = (byte) random.nextInt(4); // many equal leading bytes: ties reach the full key
      records.add(r);
      in.put(r);
    }
    in.flip();
    records.sort((a, b) -> Arrays.compareUnsigned(a, 0, 10, b, 0, 10));

    var config =
        dev.joule.io.config.SortConfig.builder()
            .memoryBudget(DataSize.ofMiB(8))
            .threads(2)
            .tempDirs(List.of(temp))
            .build();
    try (RecordSession session = ExternalSorter.open(config)) {
      session.add(in);
      try (RecordCursor sorted = session.finish()) {
        byte[] got = new byte[100];
        int i = 0;
        while (sorted.next()) {
          sorted.record().get(sorted.record().position(), got);
          assertEquals(0, Arrays.compare(records.get(i), got), "record " + i + ", seed " + seed);
          i++;
        }
        assertEquals(records.size(), i, "seed " + seed);
      }
    }
  }
}
