package dev.joule.io.output;

import dev.joule.core.index.EntryLayout;
import dev.joule.io.block.BlockWriter;
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
public final class RecordOutput implements EntrySpec.FramedSink {
  private final BlockWriter out;
  private final EntrySpec spec;
  private final EntryLayout layout;
  private final OutputValidator validator;
  private final boolean unique;

  /** Writes to {@code out}, framing as {@code spec} says, validating with {@code validator}. */
  public RecordOutput(BlockWriter out, EntrySpec spec, OutputValidator validator) {
    this.out = out;
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
    if (unique && validator.sameKeyAsPrevious(b, at)) {
      validator.dropEntry(b, at);
      return;
    }
    validator.acceptEntry(b, at);
    spec.frame(b, layout.recordStart(b, at), layout.recordLength(b, at), this);
  }

  @Override
  public void put(ByteBuffer src, int start, int length) throws IOException {
    out.put(src, start, length);
  }

  @Override
  public void put(byte b) throws IOException {
    out.put(b);
  }

  @Override
  public void putInt(int v) throws IOException {
    out.putInt(v);
  }
}
