package dev.joule.io.pipeline;

import dev.joule.io.config.SortConfig;
import dev.joule.io.error.SortIOException;
import dev.joule.io.input.EntrySpec;
import dev.joule.io.input.RecordOrder;
import dev.joule.io.input.StreamRecords;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.PriorityQueue;

/**
 * Inputs that are already sorted: merged into one output ({@code sort -m}) or checked for order
 * ({@code sort -c}), both in one streaming pass under the configuration's format, key, last resort
 * and unique mode, so that they agree with what {@link ExternalSorter#sort} would produce.
 *
 * <p>Merge: a heap of the inputs' current records, ordered by {@link RecordOrder} and then by input
 * position, so that equal records leave in input order (GNU's {@code -m}, and stable). An input
 * that is not sorted is not an error: its records are merged as they come, as GNU does. Memory: one
 * record buffer per input (it grows to the longest record).
 *
 * <p>Stateless; each call owns what it opens and closes its inputs.
 */
public final class SortedInputs {
  private SortedInputs() {}

  /** One input stream and the name its errors and disorder reports use ({@code -} for stdin). */
  public record Input(Path name, InputStream stream) {
    /** An input; {@code name} and {@code stream} must not be null. */
    public Input {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(stream, "stream");
    }
  }

  /** The first record out of order: the input, the record's number (from 1) and its bytes. */
  public static final class Disorder {
    private final Path input;
    private final long number;
    private final byte[] record;

    Disorder(Path input, long number, byte[] record) {
      this.input = input;
      this.number = number;
      this.record = record;
    }

    /** The input's name. */
    public Path input() {
      return input;
    }

    /** The record's number in the input, from 1 (GNU's line number). */
    public long number() {
      return number;
    }

    /** A copy of the record's bytes, without delimiter. */
    public byte[] record() {
      return record.clone();
    }

    @Override
    public String toString() {
      return input + ":" + number + ": disorder";
    }
  }

  /**
   * Merges {@code inputs} into {@code out} in {@code config}'s order; closes the inputs.
   *
   * @return the records written
   * @throws SortIOException naming the input or output that failed
   */
  static long merge(List<Input> inputs, EntrySpec.FramedSink out, SortConfig config)
      throws IOException {
    EntrySpec spec = EntrySpec.of(config);
    RecordOrder order = new RecordOrder(spec);
    List<Source> sources = new ArrayList<>();
    try {
      for (Input in : inputs) {
        sources.add(new Source(new StreamRecords(in.stream(), in.name(), config.format()), order));
      }
      PriorityQueue<Source> heap =
          new PriorityQueue<>(
              Math.max(1, sources.size()),
              (a, b) -> {
                int c = order.compare(a.current, b.current);
                return c != 0 ? c : Integer.compare(a.index, b.index);
              });
      for (int i = 0; i < sources.size(); i++) {
        Source s = sources.get(i);
        s.index = i;
        if (s.advance()) {
          heap.add(s);
        }
      }
      RecordOrder.Keyed last = spec.unique() ? order.holder() : null;
      boolean any = false;
      long written = 0;
      while (!heap.isEmpty()) {
        Source s = heap.poll();
        RecordOrder.Keyed r = s.current;
        if (last == null || !any || !order.sameKey(last, r)) {
          spec.frame(r.buffer(), r.start(), r.length(), out);
          written++;
          if (last != null) {
            last.copyOf(r);
            any = true;
          }
        }
        if (s.advance()) {
          heap.add(s);
        }
      }
      return written;
    } finally {
      closeAll(inputs);
    }
  }

  /**
   * Checks that {@code input} is in {@code config}'s order (strictly, with no two equal keys, in
   * unique mode, as GNU's {@code -c -u}); closes it.
   *
   * @return null if it is sorted, else the first record that sorts before its predecessor
   * @throws SortIOException naming the input if it cannot be read
   */
  static Disorder check(Input input, SortConfig config) throws IOException {
    EntrySpec spec = EntrySpec.of(config);
    RecordOrder order = new RecordOrder(spec);
    try (StreamRecords records = new StreamRecords(input.stream(), input.name(), config.format())) {
      RecordOrder.Keyed prev = order.holder();
      RecordOrder.Keyed cur = order.holder();
      boolean first = true;
      while (records.next()) {
        keyed(cur, records);
        if (!first) {
          boolean bad =
              spec.unique()
                  ? order.sameKey(prev, cur) || order.compare(prev, cur) > 0
                  : order.compare(prev, cur) > 0;
          if (bad) {
            byte[] rec = new byte[cur.length()];
            cur.buffer().get(cur.start(), rec);
            return new Disorder(input.name(), records.number(), rec);
          }
        }
        prev.copyOf(cur);
        first = false;
      }
      return null;
    }
  }

  private static void keyed(RecordOrder.Keyed holder, StreamRecords records)
      throws SortIOException {
    try {
      holder.set(records.buffer(), records.start(), records.length());
    } catch (IllegalArgumentException e) {
      throw new SortIOException(
          "read", records.name(), "record " + records.number() + ": " + e.getMessage(), e);
    }
  }

  /** Closes the inputs' streams, every one; the first failure is thrown, naming its input. */
  static void closeAll(List<Input> inputs) throws SortIOException {
    SortIOException first = null;
    for (Input in : inputs) {
      try {
        in.stream().close();
      } catch (IOException e) {
        if (first == null) {
          first = new SortIOException("close", in.name(), SortIOException.reasonOf(e), e);
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }

  /** Closes the inputs' streams after {@code primary} ended the work, adding failures to it. */
  static void closeAllAfter(Throwable primary, List<Input> inputs) {
    for (Input in : inputs) {
      try {
        in.stream().close();
      } catch (IOException e) {
        primary.addSuppressed(e);
      }
    }
  }

  /** One input of a merge and its current record. */
  private static final class Source {
    final StreamRecords records;
    final RecordOrder.Keyed current;
    int index;

    Source(StreamRecords records, RecordOrder order) {
      this.records = records;
      this.current = order.holder();
    }

    boolean advance() throws IOException {
      if (!records.next()) {
        return false;
      }
      keyed(current, records);
      return true;
    }
  }
}
