package dev.joule.io.pipeline;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * A sort session of key/value pairs ({@link ExternalSorter#openPairs}), ordered by the unsigned
 * bytes of their keys ({@link dev.joule.core.key.KeyEncoder} builds keys that order typed fields
 * so), equal keys in the order they were added, or by their values' unsigned bytes under a
 * configured {@link dev.joule.io.config.LastResort}. The configuration's format and key do not
 * apply. See {@link SortSession}.
 */
public final class PairSession extends SortSession {
  PairSession(SessionEngine engine) {
    super(engine);
  }

  /**
   * Adds one pair: the bytes from position to limit of each (copied; neither buffer is retained,
   * positions unchanged).
   *
   * @throws NullPointerException naming the argument that is null
   * @throws IllegalStateException after {@link #finish()} or {@link #close()}, or after a run write
   *     of this session failed (it names that failure)
   * @throws IOException when a spill fails
   */
  public void add(ByteBuffer key, ByteBuffer value) throws IOException {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(value, "value");
    engine.addEntry(
        value, value.position(), value.remaining(), key, key.position(), key.remaining());
  }
}
