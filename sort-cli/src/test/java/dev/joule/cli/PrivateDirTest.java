package dev.joule.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.io.stripe.StaleDirSweeper;
import dev.joule.testing.ForeignLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code joule bench}'s private directory against the engine's stale-directory sweep: a sort of the
 * same JVM whose temp dir is the bench directory leaves it, and its lock, alone while the bench
 * lives; once it is closed nothing is left.
 */
class PrivateDirTest {
  @TempDir Path tmp;

  @Test
  void aSweepInTheSameJvmLeavesALiveBenchDirectoryAndItsLock() throws Exception {
    Path dir;
    try (PrivateDir work = PrivateDir.create(tmp, "bench")) {
      dir = work.path();
      Files.write(work.newFile("input.dat"), new byte[100]);
      Files.setLastModifiedTime(
          dir, FileTime.from(Instant.now().minus(StaleDirSweeper.GRACE).minusSeconds(60)));
      List<String> notices = new ArrayList<>();
      assertEquals(List.of(), StaleDirSweeper.sweep(tmp, notices::add));
      assertEquals(List.of(), notices);
      assertTrue(Files.exists(work.resolve("input.dat")));
      assertFalse(
          ForeignLock.canBeTaken(work.resolve("owner.lock")),
          "another process could take the live bench's lock");
    }
    assertFalse(Files.exists(dir));
  }
}
