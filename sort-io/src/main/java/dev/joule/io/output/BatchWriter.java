package dev.joule.io.output;

import dev.joule.core.memory.Alignment;
import dev.joule.io.block.BlockWriter;
import dev.joule.io.hooks.OutputFault;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Hands out batches of record space straight inside a {@link BlockWriter}'s write-behind buffers
 * ({@link BlockWriter#reserve}), so that the gather or the merge writes each output record exactly
 * once, and feeds every finished batch to an {@link OutputValidator}. A batch is a whole number of
 * 4096-byte pages (a multiple of {@code 4096 / gcd(r, 4096)} records), which keeps the stream
 * aligned as {@code reserve} requires; when such a batch does not fit one transfer buffer (large
 * records, small transfers) the batch goes through a heap staging buffer and {@link
 * BlockWriter#write}.
 *
 * <p>Not thread-safe: one writing thread.
 */
public final class BatchWriter {
  private final BlockWriter out;
  private final OutputValidator validator;
  private final int recordSize;
  private final int batchRecords;
  private final ByteBuffer staging; // null when batches are reserved in place
  private ByteBuffer open;
  private final OutputFault fault;
  private boolean faulted;
  private long committed; // records in earlier batches

  /** Batches into {@code out}, each validated by {@code validator}. */
  public BatchWriter(BlockWriter out, OutputValidator validator, int recordSize, int transfer) {
    this(out, validator, recordSize, transfer, OutputFault.NONE);
  }

  /**
   * Batches into {@code out}, each validated by {@code validator} after {@code fault} (a test hook)
   * changed it.
   */
  public BatchWriter(
      BlockWriter out, OutputValidator validator, int recordSize, int transfer, OutputFault fault) {
    this.fault = fault;
    this.faulted = fault.kind() == OutputFault.Kind.NONE;
    this.out = out;
    this.validator = validator;
    this.recordSize = recordSize;
    long q = Alignment.recordQuantum(recordSize);
    long pageBatch = (transfer / (q * recordSize)) * q;
    if (pageBatch > 0) {
      this.batchRecords = (int) pageBatch;
      this.staging = null;
    } else {
      this.batchRecords = Math.max(1, transfer / recordSize);
      this.staging = ByteBuffer.allocate(batchRecords * recordSize);
    }
  }

  /** Records per full batch. */
  public int batchRecords() {
    return batchRecords;
  }

  /**
   * Space for {@code n <= batchRecords()} records at position 0; fill it (absolute or relative
   * puts) and pass it to {@link #commit}. Only the last batch of a stream may be short.
   */
  public ByteBuffer batch(int n) throws IOException {
    int bytes = n * recordSize;
    if (staging != null) {
      open = staging.clear().limit(bytes);
    } else {
      open = out.reserve(bytes);
    }
    return open;
  }

  /** Validates the batch and (when staged) copies it into the writer. */
  public void commit(ByteBuffer batch) throws IOException {
    batch.position(0);
    if (!faulted) {
      inject(batch);
    }
    validator.accept(batch);
    if (staging != null) {
      out.write(batch);
    }
    open = null;
  }

  /** Applies the test fault if its record is in {@code batch} (else in a later one). */
  private void inject(ByteBuffer batch) {
    int n = batch.limit() / recordSize;
    long first = committed;
    committed += n;
    if (fault.at() >= committed) {
      return;
    }
    int i = (int) Math.max(0, fault.at() - first);
    switch (fault.kind()) {
      case FLIP -> {
        int p = i * recordSize + recordSize - 1;
        batch.put(p, (byte) ~batch.get(p));
        faulted = true;
      }
      case DROP -> {
        if (n > 1) {
          int from = i + 1 < n ? i + 1 : i - 1;
          batch.put(i * recordSize, batch, from * recordSize, recordSize);
          faulted = true;
        }
      }
      case SWAP -> {
        for (int j = i + 1; j < n && !faulted; j++) {
          if (batch
                  .slice(i * recordSize, recordSize)
                  .compareTo(batch.slice(j * recordSize, recordSize))
              != 0) {
            byte[] t = new byte[recordSize];
            batch.get(i * recordSize, t);
            batch.put(i * recordSize, batch, j * recordSize, recordSize);
            batch.put(j * recordSize, t);
            faulted = true;
          }
        }
      }
      case NONE -> faulted = true;
    }
  }
}
