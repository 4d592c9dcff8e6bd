package dev.joule.io.pipeline;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * A sort session of records of the configured format ({@link ExternalSorter#open}): fixed-size
 * records, lines or length-prefixed rows, ordered by the configuration's key, format and last
 * resort as the file sort orders them. See {@link SortSession}.
 */
public final class RecordSession extends SortSession {
  RecordSession(SessionEngine engine) {
    super(engine);
  }

  /**
   * Adds records: for fixed-size records, the whole records from {@code records}' position to its
   * limit; for lines and length-prefixed rows, exactly one record (its bytes, without delimiter or
   * length). Copied; {@code records} is not retained and its position is unchanged.
   *
   * @throws NullPointerException if {@code records} is null
   * @throws IllegalArgumentException if the bytes are not whole records, a record exceeds the
   *     format's limit, or the record lacks a fixed-position key field
   * @throws IllegalStateException after {@link #finish()} or {@link #close()}, or after a run write
   *     of this session failed (it names that failure)
   * @throws IOException when a spill fails
   */
  public void add(ByteBuffer records) throws IOException {
    java.util.Objects.requireNonNull(records, "records");
    int fixed = engine.fixedSize;
    if (fixed > 0 && records.remaining() % fixed != 0) {
      throw new IllegalArgumentException(
          records.remaining() + " bytes are not a whole number of " + fixed + "-byte records");
    }
    if (engine.spec.inPlace()) {
      engine.addInPlace(records.duplicate());
    } else if (fixed > 0) {
      for (int p = records.position(); p < records.limit(); p += fixed) {
        engine.addEntry(records, p, fixed, null, 0, 0);
      }
    } else {
      int max = engine.config.format().maxRecordLength();
      if (records.remaining() > max) {
        throw new IllegalArgumentException(
            "a record of "
                + records.remaining()
                + " bytes is longer than "
                + engine.config.format()
                + " allows ("
                + max
                + ")");
      }
      engine.addEntry(records, records.position(), records.remaining(), null, 0, 0);
    }
  }

  /**
   * Adds the readable bytes of a Netty buffer, as {@link #add(ByteBuffer)} (not retained, indices
   * unchanged). Named apart from {@link #add(ByteBuffer)} on purpose: an overload would make javac
   * load {@code ByteBuf} for every {@code add} call, so callers without Netty could not compile.
   *
   * @throws IOException when a spill fails
   */
  @SuppressWarnings("exports") // Netty is optional: callers of this method have it
  public void addByteBuf(io.netty.buffer.ByteBuf records) throws IOException {
    java.util.Objects.requireNonNull(records, "records");
    int fixed = engine.fixedSize;
    if (fixed > 0 && records.readableBytes() % fixed != 0) {
      throw new IllegalArgumentException(
          records.readableBytes() + " bytes are not a whole number of " + fixed + "-byte records");
    }
    // Under the session's lock: the parts of one buffer may split a record, which a spill
    // between them would sort as an incomplete chunk.
    engine.lock().lock();
    try {
      NettyRecords.add(this, records);
    } finally {
      engine.lock().unlock();
    }
  }

  /** Whether {@link NettyRecords} may hand over a composite buffer part by part. */
  boolean takesParts() {
    return engine.spec.inPlace();
  }

  /**
   * One part of a Netty buffer of fixed records read in place ({@link NettyRecords}): a part may
   * end inside a record, which the next part completes.
   */
  void addPart(ByteBuffer b) throws IOException {
    engine.addInPlace(b.duplicate());
  }
}
