package dev.joule.spark.shuffle;

import dev.joule.spark.input.InputSplit;
import dev.joule.spark.input.SplitChecksums;
import dev.joule.spark.input.SplitReader;
import dev.joule.spark.partition.Splitters;
import dev.joule.spark.record.OrdinalRecordLayout;
import java.io.IOException;
import java.util.Iterator;
import org.apache.hadoop.conf.Configuration;

/**
 * Stage 3 of 5, map side of the joule engine: reads the task's splits block by block, wraps each
 * record with its ordinal, looks up its partition in the splitters and appends it to that
 * partition's chunk. Reports each split's record count and checksum to the accumulator when the
 * split is done. Not thread-safe; one per map task.
 */
public final class SplitChunks extends ChunkIterator {
  private final Iterator<InputSplit> splits;
  private final OrdinalRecordLayout layout;
  private final Splitters splitters;
  private final Configuration conf;
  private final SplitChecksums read;
  private final byte[] wrapped;
  private SplitReader reader;
  private InputSplit split;

  public SplitChunks(
      Iterator<InputSplit> splits,
      OrdinalRecordLayout layout,
      Splitters splitters,
      Configuration conf,
      SplitChecksums read) {
    super(new PartitionChunks(splitters.partitions(), layout.wrappedSize()));
    this.splits = splits;
    this.layout = layout;
    this.splitters = splitters;
    this.conf = conf;
    this.read = read;
    this.wrapped = new byte[layout.wrappedSize()];
  }

  @Override
  protected boolean advance() throws IOException {
    while (true) {
      if (reader == null) {
        if (!splits.hasNext()) {
          return false;
        }
        split = splits.next();
        reader = new SplitReader(split, layout.recordSize(), conf);
      }
      int n = reader.next();
      if (n > 0) {
        route(reader.block(), n, reader.firstOrdinal());
        return true;
      }
      read.add(split, reader.recordsRead(), reader.checksum());
      reader.close();
      reader = null;
    }
  }

  private void route(byte[] block, int n, long firstOrdinal) {
    int rs = layout.recordSize();
    int sko = layout.sortKeyOffset();
    int ws = wrapped.length;
    for (int r = 0; r < n; r++) {
      layout.wrap(block, r * rs, firstOrdinal + r, wrapped, 0);
      chunks.add(splitters.partitionOf(wrapped, sko), wrapped, 0, ws);
    }
  }

  @Override
  protected void end() throws IOException {
    if (reader != null) {
      reader.close();
    }
  }
}
