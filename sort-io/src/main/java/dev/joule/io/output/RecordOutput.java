package dev.joule.io.output;

import dev.joule.core.index.EntryLayout;
import dev.joule.io.block.BlockWriter;
import dev.joule.io.hooks.OutputFault;
import dev.joule.io.input.EntrySpec;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Writes the records of entries to the output in the output format (a line's delimiter, a row's
 * length: {@link EntrySpec#frame}) through a {@link BlockWriter}, and feeds every entry to an
 * {@link OutputValidator}: the per-record output path of parsed records (fixed records in place go
 * through {@link BatchWriter}).
 *
 * <p>Memory: none of its own. Not thread-safe: one writing thread.
 */
public final class RecordOutput {
  private final EntrySpec.FramedSink out;
  private final EntrySpec spec;
  private final EntryLayout layout;
  private final OutputValidator validator;
  private final boolean unique;
  private final OutputFault fault;
  private boolean faulted;
  private long seen; // entries passed to write so far, for the fault
  private ByteBuffer held; // SWAP: the entry waiting for a different one to go first
  private ByteBuffer copiesScratch; // a record framed several times over, for its copies

  /** Bytes of the scratch in which a record's copies are framed: a few pages of heap. */
  private static final int COPIES_BYTES = 16 << 10;

  /** Writes to {@code out}, framing as {@code spec} says, validating with {@code validator}. */
  public RecordOutput(BlockWriter out, EntrySpec spec, OutputValidator validator) {
    this(out, spec, validator, OutputFault.NONE);
  }

  /**
   * As {@link #RecordOutput(BlockWriter, EntrySpec, OutputValidator)}, with {@code fault} (a test
   * hook) applied to the entries before they are validated.
   */
  public RecordOutput(
      BlockWriter out, EntrySpec spec, OutputValidator validator, OutputFault fault) {
    this.fault = fault;
    this.faulted = fault.kind() == OutputFault.Kind.NONE;
    this.out = EntrySpec.FramedSink.of(out);
    this.spec = spec;
    this.layout = spec.layout();
    this.validator = validator;
    this.unique = spec.unique();
  }

  /**
   * Validates and writes the record of the entry at absolute index {@code at} of {@code b}; in
   * unique mode, leaves it out (and accounts for it) when its key equals the last one written.
   */
  public void write(ByteBuffer b, int at) throws IOException {
    if (!faulted && inject(b, at)) {
      return;
    }
    writeEntry(b, at);
  }

  /**
   * Validates and writes the record of the entry at absolute index {@code at} of {@code b}, then
   * {@code copies} more times (the identical records a chunk counted on it, {@link
   * dev.joule.core.index.RepeatCounts}).
   */
  public void write(ByteBuffer b, int at, long copies) throws IOException {
    if (copies == 0 || unique || !faulted) { // a pending test fault counts records one by one
      for (long i = 0; i <= copies; i++) {
        write(b, at);
      }
      return;
    }
    writeEntry(b, at);
    validator.acceptCopies(b, at, copies);
    int rs = layout.recordStart(b, at);
    int rl = layout.recordLength(b, at);
    int framed = rl + spec.framing();
    if (framed > COPIES_BYTES / 2) {
      for (long i = 0; i < copies; i++) {
        spec.frame(b, rs, rl, out);
      }
      return;
    }
    // The framed record repeated in a scratch buffer, which goes out in one put per fill: 10^7
    // copies of a 6-byte line framed one by one took about 0.2 s.
    if (copiesScratch == null) {
      copiesScratch = ByteBuffer.allocate(COPIES_BYTES);
    }
    ByteBuffer c = copiesScratch;
    c.clear();
    spec.frame(b, rs, rl, EntrySpec.FramedSink.of(c));
    int per = (int) Math.min(copies, COPIES_BYTES / framed);
    for (int k = 1; k < per; k++) {
      c.put(k * framed, c, 0, framed);
    }
    checkCopies(b, rs, rl, c, framed, per);
    for (long left = copies; left > 0; ) {
      int n = (int) Math.min(left, per);
      out.put(c, 0, n * framed);
      left -= n;
    }
  }

  /**
   * The validator counted the entry's own bytes once per copy, so the bytes that go out must be
   * them: the record in the first framed copy, and every copy the same as the first. The second
   * holds if the scratch equals itself shifted by one copy (byte i is byte i - framed throughout),
   * one mismatch call: a compare per copy, with its two slices, was 8 % of a CPU-second of {@code
   * sort -n} on 10^7 lines of 1000 values (async-profiler).
   */
  private void checkCopies(ByteBuffer b, int rs, int rl, ByteBuffer c, int framed, int per) {
    int off = spec.recordOffsetInFrame();
    int rest = (per - 1) * framed;
    boolean same =
        c.slice(off, rl).equals(b.slice(rs, rl)) && c.slice(framed, rest).equals(c.slice(0, rest));
    if (!same) {
      throw new IllegalStateException("the framed copies of a repeated record differ from it");
    }
  }

  private void writeEntry(ByteBuffer b, int at) throws IOException {
    if (unique && validator.sameKeyAsPrevious(b, at)) {
      validator.dropEntry(b, at);
      return;
    }
    validator.acceptEntry(b, at);
    spec.frame(b, layout.recordStart(b, at), layout.recordLength(b, at), out);
  }

  /**
   * Applies the test fault to the entry at {@code at} of {@code b} if it is due; true if the entry
   * was dealt with here. Entries are copied before they are held or changed: the buffer belongs to
   * the arena or to a merge cursor, which reuses it.
   */
  private boolean inject(ByteBuffer b, int at) throws IOException {
    if (seen++ < fault.at()) {
      return false;
    }
    switch (fault.kind()) {
      case DROP -> {
        faulted = true;
        return true;
      }
      case FLIP -> {
        int rl = layout.recordLength(b, at);
        if (rl == 0) {
          return false;
        }
        ByteBuffer copy = copy(b, at);
        int p = layout.recordStart(copy, 0) + rl - 1;
        copy.put(p, (byte) ~copy.get(p));
        faulted = true;
        writeEntry(copy, 0);
        return true;
      }
      case SWAP -> {
        if (held == null) {
          held = copy(b, at);
          return true;
        }
        if (record(held, 0).equals(record(b, at))) {
          return false;
        }
        faulted = true;
        writeEntry(b, at);
        writeEntry(held, 0);
        held = null;
        return true;
      }
      default -> {
        faulted = true;
        return false;
      }
    }
  }

  private ByteBuffer copy(ByteBuffer b, int at) {
    int n = layout.entryLength(b, at);
    ByteBuffer c = ByteBuffer.allocate(n);
    c.put(0, b, at, n);
    return c;
  }

  private ByteBuffer record(ByteBuffer b, int at) {
    return b.slice(layout.recordStart(b, at), layout.recordLength(b, at));
  }
}
