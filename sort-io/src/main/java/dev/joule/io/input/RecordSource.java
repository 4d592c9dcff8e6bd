package dev.joule.io.input;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Records one at a time, as a {@link RecordReader} (a file) or {@link StreamRecords} (a stream)
 * hands them out: the current one is {@code [start(), start() + length())} of {@link #buffer()}
 * until the next call of {@link #next()}.
 */
public interface RecordSource {
  /** Moves to the next record; false when there is none. */
  boolean next() throws IOException;

  /** The buffer that holds the current record. */
  ByteBuffer buffer();

  /** Where the current record starts in {@link #buffer()}. */
  int start();

  /** The current record's length in bytes. */
  int length();

  /**
   * Where the current record is, for errors: its input offset (a file) or its number (a stream).
   */
  long position();
}
