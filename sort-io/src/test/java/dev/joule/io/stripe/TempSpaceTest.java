package dev.joule.io.stripe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.io.IoTestSupport;
import dev.joule.io.block.BlockFile;
import dev.joule.io.block.FileParts;
import dev.joule.io.config.DirectIoPolicy;
import dev.joule.io.config.NoticeSink;
import dev.joule.io.error.SortIOException;
import dev.joule.io.testing.FaultFileSystemProvider;
import dev.joule.io.testing.FaultOp;
import dev.joule.testing.ForeignLock;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TempSpaceTest {
  @TempDir Path tmp;

  private static String mode(Path p) throws IOException {
    return PosixFilePermissions.toString(
        Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS));
  }

  private TempSpace open(Path... stripes) throws SortIOException {
    return TempSpace.open(List.of(stripes), new RoundRobinStripes(), NoticeSink.IGNORE);
  }

  private static void makeOld(Path p) throws IOException {
    Files.setLastModifiedTime(
        p, FileTime.from(Instant.now().minus(StaleDirSweeper.GRACE).minusSeconds(60)));
  }

  @Test
  void stripedFilesSpreadOverEveryStripeAndWeighUnitsByMeasuredWriteSpeed() throws IOException {
    Path s1 = Files.createDirectory(tmp.resolve("s1"));
    Path s2 = Files.createDirectory(tmp.resolve("s2"));
    try (TempSpace space = open(s1, s2)) {
      FileParts first;
      try (BlockFile f = space.createStriped("run", 1 << 20, DirectIoPolicy.AUTO, 4096, 8192)) {
        first = f.parts();
      }
      assertEquals(2, first.segments());
      assertEquals(s1, first.paths().get(0).getParent().getParent());
      assertEquals(s2, first.paths().get(1).getParent().getParent());
      assertArrayEquals(new int[] {0, 1}, first.map().pattern(), "round robin before measuring");
      for (Path p : first.paths()) {
        assertEquals("rw-------", mode(p));
        assertTrue(space.tracker().isTracked(p));
      }
      // Rates within EQUAL_WITHIN of each other are noise: still round robin.
      long now = System.nanoTime();
      for (int i = 0; i < TempSpace.WEIGHT_AFTER_WRITES; i++) {
        space.meter(0).wrote(40 << 20, now - 150_000_000L);
        space.meter(1).wrote(40 << 20, now - 100_000_000L);
      }
      try (BlockFile f = space.createStriped("run", 1 << 20, DirectIoPolicy.AUTO, 4096, 8192)) {
        assertEquals(2, f.parts().map().pattern().length, "1.5x apart: " + f.parts());
        space.delete(f.parts());
      }
      // Stripe 1 (s2) now writes about 4 times as fast as stripe 0: 40 MiB in 0.1 s and 0.4 s.
      for (int i = 0; i < 9 * TempSpace.WEIGHT_AFTER_WRITES; i++) { // the 1.5x writes fade: 3.6x
        space.meter(0).wrote(40 << 20, now - 400_000_000L);
      }
      for (int i = 0; i < TempSpace.WEIGHT_AFTER_WRITES; i++) {
        space.meter(0).wrote(40 << 20, now - 400_000_000L);
        space.meter(1).wrote(40 << 20, now - 100_000_000L);
      }
      try (BlockFile f = space.createStriped("run", 1 << 20, DirectIoPolicy.AUTO, 4096, 8192)) {
        FileParts p = f.parts();
        assertEquals(
            s2, p.paths().get(0).getParent().getParent(), "the stripe written least first");
        int[] units = new int[2];
        for (int seg : p.map().pattern()) {
          units[p.stripe(seg)]++;
        }
        assertArrayEquals(new int[] {1, 4}, units, "units per stripe " + p);
      }
      space.delete(first);
      assertFalse(Files.exists(first.paths().get(0)));
      assertFalse(Files.exists(first.paths().get(1)));
    }
  }

  @Test
  void filesAreRoundRobinPrivateAndDeletedOnClose() throws IOException {
    Path s1 = Files.createDirectory(tmp.resolve("s1"));
    Path s2 = Files.createDirectory(tmp.resolve("s2"));
    try (TempSpace space = open(s1, s2)) {
      List<Path> files = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        try (BlockFile f = space.createFile("run", 4096, DirectIoPolicy.AUTO)) {
          files.add(f.path());
          assertEquals("rw-------", mode(f.path()));
        }
      }
      assertEquals(s1, files.get(0).getParent().getParent());
      assertEquals(s2, files.get(1).getParent().getParent());
      assertEquals(s1, files.get(2).getParent().getParent());
      for (Stripe s : space.stripes()) {
        assertEquals("rwx------", mode(s.privateDir()));
        assertTrue(s.privateDir().getFileName().toString().startsWith("joule-"));
        assertEquals("rw-------", mode(s.privateDir().resolve(Stripe.LOCK_FILE)));
      }
      assertEquals(files, space.tracker().files());
    }
    assertEquals(List.of(), IoTestSupport.listRecursive(s1));
    assertEquals(List.of(), IoTestSupport.listRecursive(s2));
  }

  /**
   * Under umask 000 the modes are still exactly 0700 / 0600, and exit without close() still cleans
   * up (shutdown hook).
   */
  @Test
  void childJvmUnderUmask000() throws Exception {
    Path stripe = Files.createDirectory(tmp.resolve("s"));
    Process p = child(stripe, "exit");
    List<String> out = lines(p);
    assertTrue(p.waitFor(30, TimeUnit.SECONDS));
    assertEquals(0, p.exitValue(), out.toString());
    assertEquals("rwx------ rw-------", out.get(0));
    assertEquals(
        List.of(), IoTestSupport.listRecursive(stripe), "shutdown hook must remove everything");
  }

  @Test
  void sigtermCleansUpAndSigkillLeftoversAreSweptButLiveDirsAreNot() throws Exception {
    Path stripe = Files.createDirectory(tmp.resolve("s"));
    Process term = child(stripe, "wait");
    BufferedReader r =
        new BufferedReader(new InputStreamReader(term.getInputStream(), StandardCharsets.UTF_8));
    r.readLine();
    assertEquals("ready", r.readLine());
    term.destroy(); // SIGTERM
    assertTrue(term.waitFor(10, TimeUnit.SECONDS));
    assertEquals(
        List.of(), IoTestSupport.listRecursive(stripe), "SIGTERM: the hook removes everything");

    Process live = child(stripe, "wait");
    BufferedReader lr =
        new BufferedReader(new InputStreamReader(live.getInputStream(), StandardCharsets.UTF_8));
    lr.readLine();
    assertEquals("ready", lr.readLine());
    try {
      Path liveDir;
      try (var ds = Files.newDirectoryStream(stripe)) {
        liveDir = ds.iterator().next();
      }
      makeOld(liveDir);
      try (TempSpace space = open(stripe)) {
        assertEquals(1, space.stripes().size());
        assertTrue(
            Files.exists(liveDir.resolve("run-000001")), "a live sort's dir must not be touched");
      }
      live.destroyForcibly(); // SIGKILL: no hook runs, the lock dies with the process
      assertTrue(live.waitFor(10, TimeUnit.SECONDS));
      assertTrue(Files.exists(liveDir.resolve("run-000001")));
      makeOld(liveDir);
      try (TempSpace space = open(stripe)) {
        assertEquals(1, space.stripes().size());
        assertFalse(Files.exists(liveDir), "the dead sort's dir is swept");
      }
      assertEquals(List.of(), IoTestSupport.listRecursive(stripe));
    } finally {
      live.destroyForcibly();
    }
  }

  private static Process child(Path stripe, String mode) throws IOException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String cmd =
        "umask 000; exec '"
            + java
            + "' -cp '"
            + System.getProperty("java.class.path")
            + "' "
            + TempSpaceChild.class.getName()
            + " '"
            + stripe
            + "' "
            + mode;
    return new ProcessBuilder("sh", "-c", cmd)
        .redirectError(ProcessBuilder.Redirect.INHERIT)
        .start();
  }

  private static List<String> lines(Process p) throws IOException {
    try (BufferedReader r =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      List<String> l = new ArrayList<>();
      for (String s; (s = r.readLine()) != null; ) {
        l.add(s);
      }
      return l;
    }
  }

  @Test
  void liveDirInThisJvmIsUntouchedAndStaleDirIsRemoved() throws IOException {
    Path stripe = Files.createDirectory(tmp.resolve("s"));
    Path stale = deadSortDir(stripe, "joule-6f1c2a7e-0b3d-4e5f-9a8b-7c6d5e4f3a2b");
    Files.write(stale.resolve("run-000003"), new byte[100]);
    makeOld(stale);
    Path unrelated = Files.createDirectory(stripe.resolve("other-dir"));
    try (TempSpace a = open(stripe)) {
      assertFalse(Files.exists(stale));
      assertTrue(Files.exists(unrelated));
      Path aDir = a.stripes().get(0).privateDir();
      makeOld(aDir);
      try (TempSpace b = open(stripe)) {
        assertEquals(1, b.stripes().size());
        assertTrue(Files.isDirectory(aDir), "live sort's dir (lock held in this JVM) must survive");
      }
      assertTrue(Files.isDirectory(aDir));
    }
    assertEquals(List.of("other-dir"), IoTestSupport.listRecursive(stripe));
  }

  /** A private dir as a sort killed with SIGKILL leaves it: 0700, an unlocked lock, a run file. */
  private static Path deadSortDir(Path stripe, String name) throws IOException {
    Path d = Files.createDirectory(stripe.resolve(name), Stripe.DIR_0700);
    Files.write(d.resolve(Stripe.LOCK_FILE), "12345\n".getBytes(StandardCharsets.US_ASCII));
    return d;
  }

  /** Gives {@code p} to user nobody; false where this process may not (not root). */
  private static boolean giveAway(Path p) throws IOException {
    try {
      Files.setOwner(
          p, p.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody"));
      return true;
    } catch (IOException | UnsupportedOperationException e) {
      return false;
    }
  }

  /**
   * A sweep in the JVM of a live sort must not drop that sort's lock: closing any channel of a file
   * drops every POSIX lock the process holds on it, so once the sweep had probed a sibling's lock
   * another process's sweep found it free and deleted a running sort's runs. Checked from another
   * process (python's {@code lockf} takes the same kind of lock).
   */
  @Test
  void aSweepInThisJvmKeepsALiveSortsLockForOtherProcesses() throws Exception {
    Path stripe = Files.createDirectory(tmp.resolve("s"));
    try (TempSpace a = open(stripe)) {
      Path aDir = a.stripes().get(0).privateDir();
      Path lock = aDir.resolve(Stripe.LOCK_FILE);
      makeOld(aDir);
      try (TempSpace b = open(stripe)) { // its sweep meets a's directory
        assertTrue(Files.isDirectory(aDir));
        assertEquals(1, b.stripes().size());
        assertFalse(
            ForeignLock.canBeTaken(lock), "another process could take the live sort's lock");
      }
    }
  }

  /**
   * A stripe is often a shared directory: the sweep removes only what a dead sort leaves there,
   * never a person's directory whose name happens to start with "joule-" (it once took a user's
   * {@code /tmp/joule-c32} with a disk image and a mounted file system inside).
   */
  @Test
  void sweepLeavesEverythingThatIsNotADeadSortsDirectory() throws IOException {
    Path stripe = Files.createDirectory(tmp.resolve("s"));
    List<Path> kept = new ArrayList<>();
    // a person's directories, no lock file
    Path results = Files.createDirectory(stripe.resolve("joule-results"));
    Files.write(results.resolve("out.txt"), new byte[10]);
    kept.add(results);
    kept.add(Files.createDirectory(stripe.resolve("joule-empty")));
    // a sort's name and lock, but not its mode
    Path open = deadSortDir(stripe, "joule-0a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d");
    Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxr-xr-x"));
    kept.add(open);
    // a sort's directory with a file no sort writes, and one with a directory inside
    Path extra = deadSortDir(stripe, "joule-1a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d");
    Files.write(extra.resolve("run-000001"), new byte[10]);
    Files.write(extra.resolve("notes.txt"), new byte[10]);
    kept.add(extra);
    Path mount = deadSortDir(stripe, "joule-2a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d");
    Files.write(Files.createDirectory(mount.resolve("d0")).resolve("img0"), new byte[10]);
    kept.add(mount);
    // a link in a sort's name to a directory that looks like a dead sort's
    Path victim = deadSortDir(tmp, "joule-7a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d");
    Files.write(victim.resolve("run-000001"), new byte[10]);
    makeOld(victim);
    Path link =
        Files.createSymbolicLink(
            stripe.resolve("joule-8a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d"), victim);
    // another user's (when the test may give it away)
    Path theirs = deadSortDir(stripe, "joule-9a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d");
    boolean gaveAway = giveAway(theirs);
    if (gaveAway) {
      kept.add(theirs);
    }
    // what a dead sort leaves: removed
    Path dead = deadSortDir(stripe, "joule-4a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d");
    Files.write(dead.resolve("run-000001"), new byte[10]);
    Files.write(dead.resolve("runpart-1234567"), new byte[10]);
    Path bench = deadSortDir(stripe, "joule-bench-6a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d");
    Files.write(bench.resolve("input.dat"), new byte[10]);
    Files.write(bench.resolve(".output.dat.1x2y3z.tmp"), new byte[10]);
    Path bare =
        Files.createDirectory(
            stripe.resolve("joule-5a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d"), Stripe.DIR_0700);
    // no lock file but a sort's files: a cleanup killed after it deleted the lock
    Path unlocked =
        Files.createDirectory(
            stripe.resolve("joule-3a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d"), Stripe.DIR_0700);
    Files.write(unlocked.resolve("run-000001"), new byte[10]);
    for (Path d : kept) {
      makeOld(d);
    }
    makeOld(dead);
    makeOld(bench);
    makeOld(bare);
    makeOld(unlocked);
    List<String> notices = new ArrayList<>();
    List<Path> removed = StaleDirSweeper.sweep(stripe, notices::add);
    assertEquals(Set.of(bare, dead, bench, unlocked), Set.copyOf(removed));
    assertTrue(Files.isSymbolicLink(link), "a link is never followed nor removed");
    assertEquals(
        Set.of("owner.lock", "run-000001"),
        IoTestSupport.listRecursive(victim).stream().collect(Collectors.toSet()),
        "the link's target is untouched");
    for (Path d : kept) {
      assertTrue(Files.isDirectory(d), "must be left alone: " + d);
    }
    assertTrue(Files.exists(results.resolve("out.txt")));
    assertTrue(Files.exists(mount.resolve("d0").resolve("img0")));
    assertTrue(Files.exists(extra.resolve("run-000001")), "nothing of a foreign dir is deleted");
    assertTrue(
        notices.stream().anyMatch(n -> n.contains(extra.toString()) && n.contains("notes.txt")),
        notices.toString());
    assertTrue(
        notices.stream().anyMatch(n -> n.contains(mount.resolve("d0").toString())),
        notices.toString());
  }

  @Test
  void plantedSymlinkIsNeverFollowed() throws IOException {
    Path stripe = Files.createDirectory(tmp.resolve("s"));
    Path victim = tmp.resolve("victim");
    Files.write(victim, "precious".getBytes(StandardCharsets.US_ASCII));
    String sha = IoTestSupport.sha256(victim);
    try (TempSpace space = open(stripe)) {
      Path dir = space.stripes().get(0).privateDir();
      Files.createSymbolicLink(
          dir.resolve("run-000001"), victim); // the next name the space would use
      SortIOException e =
          assertThrows(
              SortIOException.class, () -> space.createFile("run", 1, DirectIoPolicy.AUTO));
      assertEquals("create failed: " + dir.resolve("run-000001") + ": File exists", e.getMessage());
      try (BlockFile f = space.createFile("run", 1, DirectIoPolicy.AUTO)) {
        assertEquals("run-000002", f.path().getFileName().toString());
      }
    }
    assertEquals(sha, IoTestSupport.sha256(victim));
    assertEquals(List.of(), IoTestSupport.listRecursive(stripe));
  }

  @Test
  void unusableStripesAreRefusedBeforeAnythingIsCreated() throws Exception {
    Path good = Files.createDirectory(tmp.resolve("good"));
    Path missing = tmp.resolve("missing");
    Path file = Files.write(tmp.resolve("file"), new byte[1]);
    Path open = Files.createDirectory(tmp.resolve("open"));
    Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
    assertRefused(good, missing, "No such file or directory");
    assertRefused(good, file, "Not a directory");
    assertRefused(good, open, "world-writable without the sticky bit");
    assertEquals(List.of(), IoTestSupport.listRecursive(good));
    assertEquals(0, new ProcessBuilder("chmod", "1777", open.toString()).start().waitFor());
    try (TempSpace s = open(good, open)) {
      assertEquals(2, s.stripes().size());
    }
  }

  private void assertRefused(Path good, Path bad, String reason) {
    SortIOException e = assertThrows(SortIOException.class, () -> open(good, bad));
    assertEquals("use temp dir failed: " + bad + ": " + reason, e.getMessage());
  }

  @Test
  void notEnoughSpaceNamesTheStripe() throws IOException {
    Path stripe = Files.createDirectory(tmp.resolve("s"));
    try (TempSpace space = open(stripe)) {
      SortIOException e =
          assertThrows(
              SortIOException.class,
              () -> space.createFile("run", Long.MAX_VALUE / 2, DirectIoPolicy.AUTO));
      assertTrue(
          e.getMessage()
              .startsWith("reserve space failed: " + stripe + ": No space left on device (need "),
          e.getMessage());
    }
    assertEquals(List.of(), IoTestSupport.listRecursive(stripe));
  }

  /**
   * Every k-th open failure while creating temp files leaves nothing behind once the space is
   * closed after the failure.
   */
  @Test
  void failuresLeaveNoTempFiles() throws IOException {
    Path real = Files.createDirectory(tmp.resolve("s"));
    for (int k = 1; k <= 6; k++) {
      FaultFileSystemProvider faults = FaultFileSystemProvider.create(k);
      faults.failAt(FaultOp.OPEN, k);
      try {
        TempSpace space =
            TempSpace.open(List.of(faults.wrap(real)), new RoundRobinStripes(), NoticeSink.IGNORE);
        try {
          for (int i = 0; i < 3; i++) {
            space.createFile("run", 1, DirectIoPolicy.AUTO).close();
          }
          space.close();
        } catch (SortIOException e) {
          space.closeAfterFailure(e);
          throw e;
        }
      } catch (SortIOException e) {
        assertTrue(e.getMessage().endsWith(": Input/output error"), e.getMessage());
        assertTrue(e.getMessage().contains(real.toString()), e.getMessage());
      }
      assertEquals(List.of(), IoTestSupport.listRecursive(real), "k=" + k);
      faults.assertNoOpenHandles();
    }
  }

  /**
   * F13: a lazily unmounted stripe is refused before any byte lands on the parent file system.
   * Needs root.
   */
  @Test
  void lazilyUnmountedStripeIsRefused() throws Exception {
    Path mnt = Files.createDirectory(tmp.resolve("mnt"));
    Process m =
        new ProcessBuilder(
                "mount", "-t", "tmpfs", "-o", "size=1m,mode=0755", "tmpfs", mnt.toString())
            .redirectErrorStream(true)
            .start();
    Assumptions.assumeTrue(m.waitFor() == 0, "needs root to mount a tmpfs");
    boolean mounted = true;
    try {
      TempSpace space = open(mnt);
      try {
        space.createFile("run", 1, DirectIoPolicy.AUTO).close();
        assertEquals(0, new ProcessBuilder("umount", "-l", mnt.toString()).start().waitFor());
        mounted = false;
        SortIOException e =
            assertThrows(
                SortIOException.class, () -> space.createFile("run", 1, DirectIoPolicy.AUTO));
        assertTrue(
            e.getMessage().endsWith(": temp dir " + mnt + " is no longer on the same file system"),
            e.getMessage());
      } finally {
        space.close();
      }
      assertEquals(
          List.of(), IoTestSupport.listRecursive(mnt), "nothing written to the parent file system");
    } finally {
      if (mounted) {
        new ProcessBuilder("umount", "-l", mnt.toString()).start().waitFor();
      }
    }
  }

  /**
   * A failed deletion is reported (op and path) even though the private-dir removal that follows
   * deletes the file on its second attempt; an empty private dir left without its lock (a sort
   * killed between the two) is swept by the next sort.
   */
  @Test
  void failedDeletionIsReportedAndLeftoversAreSwept() throws IOException {
    Path real = Files.createDirectory(tmp.resolve("s"));
    FaultFileSystemProvider faults = FaultFileSystemProvider.create(1);
    TempSpace space =
        TempSpace.open(List.of(faults.wrap(real)), new RoundRobinStripes(), NoticeSink.IGNORE);
    Path run;
    try (BlockFile f = space.createFile("run", 1, DirectIoPolicy.AUTO)) {
      run = f.path();
    }
    faults.failAt(FaultOp.DELETE, 1);
    SortIOException e = assertThrows(SortIOException.class, space::close);
    assertEquals("delete failed: " + run + ": Input/output error", e.getMessage());
    assertEquals(List.of(), IoTestSupport.listRecursive(real));
    faults.assertNoOpenHandles();

    Path leftover =
        Files.createDirectory(
            real.resolve("joule-7e57ab1e-0000-4000-8000-00000000c0de"), Stripe.DIR_0700);
    Files.write(leftover.resolve("run-000001"), new byte[1]);
    makeOld(leftover);
    try (TempSpace next = open(real)) {
      assertEquals(1, next.stripes().size());
      assertFalse(Files.exists(leftover), "an old private dir without its lock file is swept");
    }
    assertEquals(List.of(), IoTestSupport.listRecursive(real));
  }
}
