package dev.joule.io.hooks;

import java.util.Objects;

/**
 * A fault that the output path of a file sort injects into the records it writes, before the
 * self-validation sees them (the validator checks what the sort writes, so a fault after it would
 * prove nothing about it): the tests' way to show that a wrong order, count or checksum is caught
 * and nothing is published. Each output writer (the one-pass output, each part of a final merge)
 * counts its own records from 0 and injects the fault once, at its record {@code at} or the first
 * one after it where the fault can change something.
 *
 * @param kind what to do
 * @param at the writer's record index where the fault starts
 */
public record OutputFault(Kind kind, long at) {
  /** No fault. */
  public static final OutputFault NONE = new OutputFault(Kind.NONE, 0);

  /** What the fault does to the output. */
  public enum Kind {
    /** Nothing. */
    NONE,
    /**
     * Record {@code at} changes places with the next record whose bytes differ from it (equal
     * records in either order are the same output): count and checksum stay right, the order is
     * wrong (for keys that tell different records apart).
     */
    SWAP,
    /**
     * Record {@code at} is left out. Fixed records written in batches cannot shrink a batch, so
     * there the record is replaced by a copy of its neighbour: the count stays right and the
     * checksum is wrong.
     */
    DROP,
    /** The last byte of record {@code at} (or of the first non-empty record after it) flips. */
    FLIP
  }

  /** Validates the arguments. */
  public OutputFault {
    Objects.requireNonNull(kind, "kind");
    if (at < 0) {
      throw new IllegalArgumentException("record index " + at + " is negative");
    }
  }
}
