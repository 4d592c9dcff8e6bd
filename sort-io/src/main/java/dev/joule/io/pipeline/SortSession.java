package dev.joule.io.pipeline;

import dev.joule.core.gather.RecordGatherer;
import dev.joule.core.index.RecordIndex;
import dev.joule.core.memory.RecordArena;
import dev.joule.core.radix.RadixRunSorter;
import dev.joule.core.record.FixedLengthFormat;
import dev.joule.core.valsort.RecordChecksum;
import dev.joule.io.block.BlockPool;
import dev.joule.io.config.NoticeSink;
import dev.joule.io.config.SortConfig;
import dev.joule.io.error.SortValidationException;
import dev.joule.io.input.ArenaIndexer;
import dev.joule.io.input.EntrySpec;
import dev.joule.io.input.InputStage;
import dev.joule.io.memory.MemoryMeter;
import dev.joule.io.memory.Resources;
import dev.joule.io.output.OutputValidator;
import dev.joule.io.plan.MergePlan;
import dev.joule.io.plan.SortPlan;
import dev.joule.io.prefetch.MergeInputs;
import dev.joule.io.prefetch.MergeSource;
import dev.joule.io.run.RunDescriptor;
import dev.joule.io.run.RunSpill;
import dev.joule.io.stripe.RoundRobinStripes;
import dev.joule.io.stripe.TempSpace;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * A push/pull sort for embedding: {@link #add} whole records (copied into one off-heap arena of the
 * budget's one-pass capacity; when it fills, it is sorted and spilled as a run file, {@link
 * RunSpill}), then {@link #finish()} returns a {@link RecordCursor} over all records in stable key
 * order: straight from the sorted arena if nothing was spilled, else from a streaming merge of the
 * runs ({@link MergeSource}) after the intermediate passes the {@link MergePlan} asks for ({@link
 * MergePasses}). The cursor validates count, checksum and order against what was added; a mismatch
 * throws {@link SortValidationException} at the end.
 *
 * <p>Not thread-safe: one thread adds, finishes and pulls. {@link #close()} releases everything
 * (arena, sorter threads, prefetch threads, temp files); the cursor must not be used after it.
 */
public final class SortSession implements AutoCloseable {
  private final SortConfig config;
  private final FixedLengthFormat format;
  private final int rs;
  private final SortPlan plan;
  private final MemoryMeter meter = new MemoryMeter();
  private final Resources res = new Resources(meter);
  private final RecordChecksum inputChecksum = new RecordChecksum();
  private final List<RunDescriptor> runs = new ArrayList<>();
  private final NoticeSink notices;
  private RadixRunSorter sorter;
  private RecordArena arena;
  private ByteBuffer[] slabs;
  private int[] usable;
  private int slab;
  private RecordIndex index;
  private TempSpace temp;
  private long records;
  private boolean finished;
  private boolean closed;

  SortSession(SortConfig config) {
    this.config = config;
    if (!(config.format() instanceof FixedLengthFormat f)) {
      throw new IllegalArgumentException("sessions take fixed records: " + config.format());
    }
    this.format = f;
    this.rs = f.recordSize();
    this.plan = SortPlan.of(0, config);
    this.notices = NoticeSink.distinct(config.notices());
  }

  /**
   * Adds the records from {@code records}' position to its limit (whole records; not retained,
   * position unchanged).
   *
   * @throws IOException when a spill fails
   */
  public void add(ByteBuffer records) throws IOException {
    if (records.remaining() % rs != 0) {
      throw new IllegalArgumentException(
          records.remaining() + " bytes are not a whole number of " + rs + "-byte records");
    }
    addPart(records.duplicate());
  }

  /**
   * Adds the readable bytes of a Netty buffer (whole records; not retained, indices unchanged).
   * Named apart from {@link #add(ByteBuffer)} on purpose: an overload would make javac load {@code
   * ByteBuf} for every {@code add} call, so callers without Netty could not compile.
   *
   * @throws IOException when a spill fails
   */
  @SuppressWarnings("exports") // Netty is optional: callers of this method have it
  public void addByteBuf(io.netty.buffer.ByteBuf records) throws IOException {
    if (records.readableBytes() % rs != 0) {
      throw new IllegalArgumentException(
          records.readableBytes() + " bytes are not a whole number of " + rs + "-byte records");
    }
    NettyRecords.add(this, records);
  }

  void addPart(ByteBuffer b) throws IOException {
    checkOpen();
    if (arena == null) {
      allocate();
    }
    while (b.hasRemaining()) {
      int room = usable[slab] - arena.filled(slab);
      if (room == 0) {
        if (slab + 1 < usable.length) {
          slab++;
          continue;
        }
        spill();
        continue;
      }
      int n = Math.min(room, b.remaining());
      int at = arena.filled(slab);
      slabs[slab].put(at, b, b.position(), n);
      b.position(b.position() + n);
      arena.setFilled(slab, at + n);
    }
  }

  private void allocate() {
    long cap = Math.max(1, plan.onePassCapacity()) * rs;
    arena = res.arena(cap, InputStage.slabBytes(cap, rs));
    slabs = new ByteBuffer[arena.slabCount()];
    usable = new int[arena.slabCount()];
    for (int s = 0; s < slabs.length; s++) {
      slabs[s] = arena.writableWindow(s, 0, arena.slabCapacity(s));
      usable[s] = arena.slabCapacity(s) / rs * rs;
    }
    index = RecordIndex.forArena(arena, format);
    sorter = res.add(new RadixRunSorter(config.threads()));
  }

  private int sortArena() {
    inputChecksum.add(ArenaIndexer.checksumAndIndex(arena.view(), index, format, sorter.pool()));
    int n = index.size();
    records += n;
    sorter.sort(index);
    return n;
  }

  private void spill() throws IOException {
    int n = sortArena();
    if (temp == null) {
      temp = res.add(TempSpace.open(config.tempDirs(), new RoundRobinStripes(), notices));
    }
    try (Resources local = new Resources(meter)) {
      BlockPool pool = local.pool(SortPlan.RUN_WRITE_BUFFERS, plan.tempTransfer());
      runs.add(
          RunSpill.writeSorted(
              temp,
              plan.tempTransfer(),
              pool,
              config.directIo(),
              index,
              n,
              (long) n * rs,
              new RecordGatherer(sorter.pool()),
              null));
    }
    arena.clear();
    slab = 0;
  }

  /**
   * Ends the input and returns the records in sorted order. Call once.
   *
   * @throws IOException when a spill or an intermediate merge fails
   */
  public RecordCursor finish() throws IOException {
    checkOpen();
    if (finished) {
      throw new IllegalStateException("finish() was already called");
    }
    finished = true;
    if (arena == null) {
      return validating(new ArenaCursor(null, 0));
    }
    if (runs.isEmpty()) {
      int n = sortArena();
      return validating(new ArenaCursor(index, n));
    }
    if (arena.filledBytes() > 0) {
      spill();
    }
    MergePhase merge = new MergePhase(config, plan, meter, null);
    long[] sizes = new long[runs.size()];
    for (int i = 0; i < sizes.length; i++) {
      sizes[i] = runs.get(i).recordCount() * rs;
    }
    MergePlan mp = MergePlan.of(sizes, plan.mergeFanIn());
    List<RunDescriptor> last = MergePasses.beforeFinal(mp, runs, merge, temp, report -> {});
    return validating(new MergeCursor(last));
  }

  private RecordCursor validating(RecordCursor inner) {
    OutputValidator v = new OutputValidator(format);
    return new RecordCursor() {
      private boolean checked;

      @Override
      public boolean next() throws IOException {
        if (inner.next()) {
          v.accept(inner.record());
          return true;
        }
        if (!checked) {
          checked = true;
          v.checkAgainstInput(records, inputChecksum, "the session's output");
        }
        return false;
      }

      @Override
      public ByteBuffer record() {
        return inner.record();
      }

      @Override
      public void close() {
        inner.close();
      }
    };
  }

  /** Records of a sorted arena, in index order. */
  private final class ArenaCursor implements RecordCursor {
    private final RecordIndex idx;
    private final int n;
    private int i = -1;
    private ByteBuffer current;

    ArenaCursor(RecordIndex idx, int n) {
      this.idx = idx;
      this.n = n;
    }

    @Override
    public boolean next() throws IOException {
      checkOpen();
      if (i + 1 >= n) {
        i = n;
        current = null;
        return false;
      }
      i++;
      long ref = idx.ref(i);
      // The slab buffers are read-only views, and so is any slice of them: one object per record.
      current = idx.slabBuffer(RecordIndex.slabOf(ref)).slice(RecordIndex.offsetOf(ref), rs);
      return true;
    }

    @Override
    public ByteBuffer record() {
      return current;
    }

    @Override
    public void close() {}
  }

  /** A streaming merge of run files. */
  private final class MergeCursor implements RecordCursor {
    private final MergeSource source;
    private ByteBuffer current;

    MergeCursor(List<RunDescriptor> runs) throws IOException {
      MergeInputs in =
          res.add(
              new MergeInputs(
                  runs, EntrySpec.of(config).layout(), config.directIo(), config.notices()));
      BlockPool pool = res.pool(2 * runs.size(), plan.tempTransfer());
      source = res.add(MergeSource.whole(in, pool, EntrySpec.of(config).tie()));
    }

    @Override
    public boolean next() throws IOException {
      checkOpen();
      if (!source.next()) {
        current = null;
        return false;
      }
      var c = source.current();
      // read-only: the cursor's blocks are read-only views
      current = c.buffer().slice(c.position(), rs);
      return true;
    }

    @Override
    public ByteBuffer record() {
      return current;
    }

    @Override
    public void close() {}
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("session is closed");
    }
  }

  /** Releases the arena, threads and temp files; idempotent. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    RuntimeException primary = new RuntimeException("closing the sort session failed");
    res.closeAfterFailure(primary);
    if (primary.getSuppressed().length > 0) {
      throw primary;
    }
  }
}
