package dev.joule.io.fs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.io.error.CorruptRunException;
import dev.joule.io.error.SortCancelledException;
import dev.joule.io.error.SortIOException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileLockInterruptionException;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link Failures#translate}: every way an interrupt reaches the sort's code becomes a {@link
 * SortCancelledException} with the interrupt flag set, and nothing else does.
 */
class FailuresTest {
  static final Path RUN = Path.of("/x/joule-1/run-000003");

  @AfterEach
  void clearFlag() {
    Thread.interrupted();
  }

  static void assertCancelled(IOException e, Throwable cause, String message) {
    SortCancelledException c = assertInstanceOf(SortCancelledException.class, e);
    assertSame(cause, c.getCause());
    assertEquals(message, c.getMessage());
    assertTrue(Thread.currentThread().isInterrupted(), "interrupt flag set");
  }

  @Test
  void aFileChannelCallCutShortByAnInterruptIsACancellation() {
    // As SegmentFile reports it; the flag is clear here, as if something on the way had cleared it.
    SortIOException read =
        new SortIOException(
            "read", RUN, "ClosedByInterruptException", new ClosedByInterruptException());
    assertCancelled(
        Failures.translate(read),
        read,
        "sort cancelled (thread interrupted) during read of " + RUN);
  }

  @Test
  void anInterruptedFileLockIsACancellation() {
    SortIOException lock =
        new SortIOException(
            "lock", RUN, "FileLockInterruptionException", new FileLockInterruptionException());
    assertCancelled(
        Failures.translate(lock),
        lock,
        "sort cancelled (thread interrupted) during lock of " + RUN);
  }

  @Test
  void anInterruptedWaitIsACancellationAndKeepsItsMessage() {
    InterruptedIOException wait =
        new InterruptedIOException("interrupted while waiting for a read");
    assertCancelled(
        Failures.translate(new UncheckedIOException(wait)),
        wait,
        "sort cancelled: interrupted while waiting for a read");
  }

  @Test
  void anyIoFailureOnAnInterruptedThreadIsACancellation() {
    // Another thread's channel, closed by this thread's interrupt, fails with no interrupt of its
    // own in the chain.
    SortIOException read =
        new SortIOException("read", RUN, "ClosedChannelException", new ClosedChannelException());
    Thread.currentThread().interrupt();
    assertCancelled(
        Failures.translate(read),
        read,
        "sort cancelled (thread interrupted) during read of " + RUN);
  }

  @Test
  void aCancellationPassesUnchanged() {
    SortCancelledException c = new SortCancelledException("sort cancelled (thread interrupted)");
    Thread.currentThread().interrupt();
    assertSame(c, Failures.translate(c));
  }

  @Test
  void failuresWithoutAnInterruptPassUnchanged() {
    SortIOException full =
        new SortIOException("write", RUN, "No space left on device", new IOException("ENOSPC"));
    assertSame(full, Failures.translate(full));
    SortIOException closed =
        new SortIOException("read", RUN, "ClosedChannelException", new ClosedChannelException());
    assertSame(closed, Failures.translate(closed));
    CorruptRunException corrupt = new CorruptRunException(RUN, 4096, "block CRC32C mismatch");
    assertSame(corrupt, Failures.translate(corrupt));
    assertFalse(Thread.currentThread().isInterrupted(), "interrupt flag set without an interrupt");
  }

  @Test
  void uncheckedThrowablesAreRethrownEvenWhenInterrupted() {
    IllegalStateException listener = new IllegalStateException("listener failed");
    Thread.currentThread().interrupt();
    assertSame(
        listener, assertThrows(IllegalStateException.class, () -> Failures.translate(listener)));
  }
}
