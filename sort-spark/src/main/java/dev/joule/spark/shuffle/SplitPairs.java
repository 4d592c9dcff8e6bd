package dev.joule.spark.shuffle;

import dev.joule.spark.input.InputSplit;
import dev.joule.spark.input.SplitChecksums;
import dev.joule.spark.input.SplitReader;
import dev.joule.spark.record.OrdinalRecordLayout;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.NoSuchElementException;
import org.apache.hadoop.conf.Configuration;
import scala.Tuple2;

/**
 * Stage 3 of 5, map side of the Spark engine: the task's records as {@code (sort key, rest)} pairs
 * of byte arrays (TeraSort's key/value shape, with the ordinal appended to the key), for Spark's
 * partitioner and sort. Reports each split's count and checksum like {@link SplitChunks}. Not
 * thread-safe; one per map task.
 */
public final class SplitPairs implements Iterator<Tuple2<byte[], byte[]>> {
  private final Iterator<InputSplit> splits;
  private final OrdinalRecordLayout layout;
  private final Configuration conf;
  private final SplitChecksums read;
  private SplitReader reader;
  private InputSplit split;
  private int inBlock;
  private int at;

  public SplitPairs(
      Iterator<InputSplit> splits,
      OrdinalRecordLayout layout,
      Configuration conf,
      SplitChecksums read) {
    this.splits = splits;
    this.layout = layout;
    this.conf = conf;
    this.read = read;
  }

  @Override
  public boolean hasNext() {
    try {
      while (at == inBlock) {
        if (reader == null) {
          if (!splits.hasNext()) {
            return false;
          }
          split = splits.next();
          reader = new SplitReader(split, layout.recordSize(), conf);
        }
        inBlock = reader.next();
        at = 0;
        if (inBlock == 0) {
          read.add(split, reader.recordsRead(), reader.checksum());
          reader.close();
          reader = null;
        }
      }
      return true;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public Tuple2<byte[], byte[]> next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    byte[] block = reader.block();
    int off = at * layout.recordSize();
    long ordinal = reader.firstOrdinal() + at;
    at++;
    return new Tuple2<>(layout.sortKey(block, off, ordinal), layout.rest(block, off));
  }
}
