package dev.joule.io.run;

import dev.joule.core.gather.RecordGatherer;
import dev.joule.core.index.EntryLayout;
import dev.joule.core.index.RecordIndex;
import dev.joule.core.index.RepeatCounts;
import dev.joule.core.memory.Alignment;
import dev.joule.core.valsort.RecordChecksum;
import dev.joule.io.block.BlockFile;
import dev.joule.io.block.BlockPool;
import dev.joule.io.block.BlockWriter;
import dev.joule.io.block.SortThreads;
import dev.joule.io.error.CompressProgramException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Writes one sorted run in format v3 (see the package documentation): entries are laid out straight
 * into the write-behind buffers (one copy: the gather from the arena, or the merge's copy of an
 * entry), a block is sealed (used bytes, entry count, CRC32C) when the next entry does not fit, and
 * {@link #finish()} writes the last block and the footer: entry count, the valsort checksum of the
 * records, per block its entry count and first key, and for entries of varying size the page table.
 *
 * <p>Entries never straddle blocks, except an entry larger than a block's payload, which starts a
 * block and continues through as many as it needs. The writer does not check that entries arrive
 * sorted (the sorters' tests do); it does not fsync: a run file is only useful to the sort that
 * writes it, which restarts from the input after a crash.
 *
 * <p>Memory: the {@link BlockWriter}'s pool buffers (each at least one block) plus about 90 bytes
 * per block and 8 per page of the footer's tables. Not thread-safe: one thread adds entries. The
 * writer does not close the file.
 */
public final class RunWriter implements AutoCloseable {
  /** Entries whose lengths are read ahead of their copies (race-formats.sh, docs/decisions/D19). */
  static final int GATHER_BATCH = 32;

  /** Where a batch's touches go, in the rare case they sum to 42: the reads are then not dead. */
  private static final AtomicLong TOUCHED = new AtomicLong();

  private final BlockFile file;
  private final EntryLayout layout;
  private final int blockSize;
  private final int payload;
  private final BlockWriter out;
  private RecordChecksum checksum = new RecordChecksum(); // of the kind `known` has, if given
  private final boolean pages;
  private final RunCompression compression;
  private final BlockCodec codec;
  private final RunCompression.Choice choice;
  private boolean tryBlock; // whether the open block is to be compressed
  private final SortThreads threads;
  private CompressAhead ahead; // made on the first entries from memory (compressing ahead is safe)
  private RunCompression.ScratchBuffer staging; // the open block's buffer when it is staged
  private Staged pending; // the block being compressed ahead, appended when the next is sealed
  private int[] entriesStarting = new int[16];
  private int[] storedLength = new int[16];
  private int[] firstKeyLength = new int[16];
  private byte[][] firstKey = new byte[16][];
  private long[] pageEntry = new long[64];
  private int[] pageOffset = new int[64];
  private long[] pageRecordBytes = new long[64];
  private long recordBytes; // of the entries added so far
  private int pageCount; // pages of the page table filled so far
  private int blockCount;
  private long entryCount;
  private ByteBuffer block; // the block being filled, a slice of a pool buffer
  private int used;
  private int inBlock;
  private boolean finished;
  private final int[] batchLengths = new int[GATHER_BATCH];

  /**
   * Starts a run of {@code layout} entries in the new, empty {@code file}, uncompressed; {@code
   * blockSize} must be a multiple of 4096 above the block trailer and fit in one buffer of {@code
   * pool}. The blocks are written behind on threads of {@code threads}, one per segment of a
   * striped file.
   */
  public RunWriter(
      BlockFile file,
      EntryLayout layout,
      int blockSize,
      BlockPool pool,
      int maxInFlight,
      SortThreads threads)
      throws IOException {
    this(file, layout, blockSize, pool, maxInFlight, threads, null);
  }

  /**
   * As {@link #RunWriter(BlockFile, EntryLayout, int, BlockPool, int, SortThreads)}, each block
   * compressed as {@code compression} decides (null: none).
   */
  public RunWriter(
      BlockFile file,
      EntryLayout layout,
      int blockSize,
      BlockPool pool,
      int maxInFlight,
      SortThreads threads,
      RunCompression compression)
      throws IOException {
    if (blockSize % Alignment.BYTES != 0 || blockSize <= RunLayout.BLOCK_TRAILER) {
      throw new IllegalArgumentException(
          "block size must be a positive multiple of 4096: " + blockSize);
    }
    if (layout.fixedSize() && RunLayout.payload(blockSize) < layout.fixedEntrySize()) {
      throw new IllegalArgumentException(
          "block size " + blockSize + " cannot hold an entry of " + layout.fixedEntrySize());
    }
    if (blockSize > pool.bufferSize()) {
      throw new IllegalArgumentException(
          "block size " + blockSize + " exceeds pool buffers of " + pool.bufferSize());
    }
    this.file = file;
    this.layout = layout;
    this.blockSize = blockSize;
    this.payload = RunLayout.payload(blockSize);
    this.pages = RunLayout.pageTable(layout);
    this.compression = compression;
    this.threads = threads;
    this.choice = compression == null ? null : compression.forRun();
    this.codec = choice == null ? BlockCodec.NONE : choice.codec();
    // A write queue and thread per segment: a striped run's consecutive blocks go to different
    // devices.
    this.out = new BlockWriter(file, pool, maxInFlight, true, threads);
    try {
      out.write(header(layout, blockSize, codec));
    } catch (IOException | RuntimeException e) {
      out.close();
      throw e;
    }
  }

  static ByteBuffer header(EntryLayout layout, int blockSize, BlockCodec codec) {
    ByteBuffer h = ByteBuffer.allocate(RunLayout.HEADER_SIZE).order(ByteOrder.BIG_ENDIAN);
    h.put(RunLayout.MAGIC)
        .putInt(RunLayout.H_VERSION, RunLayout.VERSION)
        .putInt(RunLayout.H_HEADER_SIZE, RunLayout.HEADER_SIZE)
        .putInt(RunLayout.H_KEY_PLACE, RunLayout.placeCode(layout))
        .putInt(RunLayout.H_RECORD_SIZE, layout.recordSize())
        .putInt(RunLayout.H_KEY_OFFSET, layout.keyOffset())
        .putInt(RunLayout.H_KEY_LENGTH, layout.fixedKeyLength())
        .putInt(RunLayout.H_BLOCK_SIZE, blockSize)
        .putInt(RunLayout.H_CODEC, codec.code());
    h.putInt(RunLayout.H_CRC, RunLayout.crc(h, 0, RunLayout.H_CRC));
    return h.clear();
  }

  /**
   * Appends the entries in {@code entries} from its position to its limit (whole entries of this
   * run's layout); the position advances to the limit.
   */
  public void add(ByteBuffer entries) throws IOException {
    int at = entries.position();
    int end = entries.limit();
    while (at < end) {
      int len = layout.entryLength(entries, at);
      if (at + len > end) {
        throw new IllegalArgumentException(
            "the entry at " + at + " runs " + (at + len - end) + " bytes past the buffer's limit");
      }
      addEntry(entries, at, len, null);
      at += len;
    }
    entries.position(end);
  }

  /**
   * Appends one entry: {@code length} bytes at absolute index {@code at} of {@code src}; its
   * record's CRC-32 is added to the checksum unless {@code known} (the caller's checksum of exactly
   * the records it adds, added once by the caller) is given.
   */
  public void addEntry(ByteBuffer src, int at, int length, RecordChecksum known)
      throws IOException {
    if (finished) {
      throw new IllegalStateException("run " + file.path() + " is finished");
    }
    int recordLength = layout.recordLength(src, at);
    if (known == null) {
      checksum.addRecord(src, layout.recordStart(src, at), recordLength); // records, not keys
    }
    if (length > payload) {
      addLarge(src, at, length);
      recordBytes += recordLength;
      return;
    }
    if (block != null && used + length > payload) {
      seal(blockSize);
    }
    if (block == null) {
      open(src, at);
    }
    notePage(used);
    block.put(used, src, at, length);
    used += length;
    inBlock++;
    entryCount++;
    recordBytes += recordLength;
  }

  /**
   * The variable-size gather: entries sit at random places in the arena, so each costs a cache and
   * TLB miss. Reading the lengths of a batch first, and a byte of each entry's second cache line
   * ({@link RecordIndex#secondLine}), in a loop with nothing else in it, lets the CPU wait for
   * several misses at once; the copies then find the entries' first two lines in cache.
   */
  private void addEntries(
      RecordIndex index, int from, int to, RepeatCounts repeats, RecordChecksum known)
      throws IOException {
    long[] refs = index.refs();
    int[] lengths = batchLengths;
    for (int start = from; start < to; start += lengths.length) {
      int end = Math.min(to, start + lengths.length);
      long touched = 0;
      for (int i = start; i < end; i++) {
        long ref = refs[i];
        lengths[i - start] =
            layout.entryLength(
                index.slabBuffer(RecordIndex.slabOf(ref)), RecordIndex.offsetOf(ref));
        touched += index.secondLine(ref);
      }
      if (touched == 42) {
        TOUCHED.lazySet(touched);
      }
      for (int i = start; i < end; i++) {
        long ref = refs[i];
        ByteBuffer slab = index.slabBuffer(RecordIndex.slabOf(ref));
        int at = RecordIndex.offsetOf(ref);
        int length = lengths[i - start];
        addEntry(slab, at, length, known);
        for (long c = repeats.extra(ref); c > 0; c--) {
          addEntry(slab, at, length, known);
        }
      }
    }
  }

  /** Adds a known checksum of records added with {@code known != null}. */
  public void addChecksum(RecordChecksum known) {
    checksum.add(known);
  }

  /** An entry larger than a block: it starts a block and spans as many as it needs. */
  private void addLarge(ByteBuffer src, int at, int length) throws IOException {
    if (block != null) {
      seal(blockSize);
    }
    open(src, at);
    notePage(0);
    inBlock = 1;
    entryCount++;
    int done = 0;
    while (true) {
      int n = Math.min(payload, length - done);
      block.put(0, src, at + done, n);
      used = n;
      done += n;
      seal(blockSize); // the next entry starts a new block: a block holds whole entries or a piece
      if (done == length) {
        return;
      }
      openContinuation();
    }
  }

  /**
   * Appends the entries {@code [from, to)} of a sorted {@code index} (over an arena of this run's
   * layout). Fixed-size entries are gathered block-wide by {@code gatherer}; others one by one.
   *
   * @param known the valsort checksum of exactly these records if already known (e.g. taken from
   *     the arena before sorting: the same records in another order), which saves a CRC-32 pass;
   *     null computes it. A wrong one makes the footer disagree with the data, which the sort's
   *     self-validation detects.
   */
  public void add(
      RecordIndex index, int from, int to, RecordGatherer gatherer, RecordChecksum known)
      throws IOException {
    add(index, from, to, RepeatCounts.NONE, gatherer, known);
  }

  /**
   * As {@link #add(RecordIndex, int, int, RecordGatherer, RecordChecksum)}, each entry written
   * {@code 1 + repeats.extra(ref)} times: the copies a chunk counted on it instead of holding them
   * ({@code known}, if given, covers the copies too). Entries with copies go one by one.
   */
  public void add(
      RecordIndex index,
      int from,
      int to,
      RepeatCounts repeats,
      RecordGatherer gatherer,
      RecordChecksum known)
      throws IOException {
    if (finished) {
      throw new IllegalStateException("run " + file.path() + " is finished");
    }
    if (ahead == null && compression != null && compression.compressAhead(codec)) {
      // made with the run, whether or not its blocks will compress: a sort's threads are then
      // the same from one run to the next (a caller's factory sees the same calls)
      ahead = new CompressAhead(codec, threads);
    }
    if (known != null) {
      if (entryCount == 0 && known.isCastagnoli() != checksum.isCastagnoli()) {
        checksum = known.emptyOfSameKind(); // a session's own check sum (CRC-32C)
      }
      checksum.add(known);
    }
    if (!layout.fixedSize() || !repeats.isEmpty()) {
      addEntries(index, from, to, repeats, known);
      return;
    }
    int es = layout.fixedEntrySize();
    int perBlock = payload / es;
    while (from < to) {
      if (block != null && inBlock == perBlock) {
        seal(blockSize);
      }
      if (block == null) {
        long ref = index.refs()[from];
        open(index.slabBuffer(RecordIndex.slabOf(ref)), RecordIndex.offsetOf(ref));
      }
      int n = Math.min(perBlock - inBlock, to - from);
      gatherer.gather(index, from, from + n, block.position(used));
      block.position(0);
      if (known == null && layout.place() == EntryLayout.KeyPlace.RANGE) {
        checksum.addRecords(block, used, n, es); // the entries are the records
      } else if (known == null) {
        int rs = layout.recordSize();
        for (int i = 0, at = used + es - rs; i < n; i++, at += es) {
          checksum.addRecord(block, at, rs); // a fixed DERIVED entry: key, then record
        }
      }
      used += n * es;
      inBlock += n;
      entryCount += n;
      recordBytes += (long) n * layout.recordSize();
      from += n;
    }
  }

  /** Opens a block whose first entry starts at {@code at} of {@code src}: keeps its first key. */
  private void open(ByteBuffer src, int at) throws IOException {
    tryBlock = choice != null && choice.tryNext();
    block = tryBlock ? stage() : null;
    if (block == null) {
      appendPending(); // the blocks before this one go first
      block = out.reserve(blockSize);
    }
    used = 0;
    inBlock = 0;
    grow();
    int kl = layout.keyLength(src, at);
    byte[] key = new byte[Math.min(kl, RunLayout.FIRST_KEY_BYTES)];
    src.get(layout.keyStart(at), key);
    firstKey[blockCount] = key;
    firstKeyLength[blockCount] = kl;
  }

  /** Opens a block that continues a large entry: no entry starts in it. */
  private void openContinuation() throws IOException {
    tryBlock = choice != null && choice.tryNext();
    appendPending();
    block = out.reserve(blockSize);
    used = 0;
    inBlock = 0;
    grow();
    firstKey[blockCount] = new byte[0];
    firstKeyLength[blockCount] = 0;
  }

  private void grow() {
    if (blockCount == entriesStarting.length) {
      int n = blockCount * 2;
      entriesStarting = Arrays.copyOf(entriesStarting, n);
      storedLength = Arrays.copyOf(storedLength, n);
      firstKeyLength = Arrays.copyOf(firstKeyLength, n);
      firstKey = Arrays.copyOf(firstKey, n);
    }
  }

  /** Records, for variable-size entries, that entry {@code entryCount} starts at {@code used}. */
  private void notePage(int offsetInBlock) {
    if (!pages) {
      return;
    }
    long data = (long) blockCount * blockSize + offsetInBlock;
    int page = (int) (data / Alignment.BYTES);
    // Pages skipped since the last start carry the index of this, the next, entry.
    while (pageCount <= page) {
      growPages();
      pageEntry[pageCount] = entryCount;
      pageOffset[pageCount] = RunLayout.NO_ENTRY;
      pageRecordBytes[pageCount] = recordBytes;
      pageCount++;
    }
    if (pageOffset[page] == RunLayout.NO_ENTRY && pageEntry[page] == entryCount) {
      pageOffset[page] = (int) (data % Alignment.BYTES);
    }
  }

  /**
   * Stores the block compressed if it was to be tried and shrinks by a page at least; otherwise
   * zeroes the padding and writes the raw block's trailer. Releases the block to the writer.
   */
  private void seal(int length) throws IOException {
    block.order(ByteOrder.BIG_ENDIAN);
    if (staging != null) {
      sealStaged(length);
      return;
    }
    int stored = tryBlock ? compress(length) : length;
    if (compression != null) {
      compression.wrote(length, stored);
    }
    if (stored < length) {
      out.retract(length - stored);
      storedLength[blockCount] = stored;
      entriesStarting[blockCount++] = inBlock;
      block = null;
      return;
    }
    storedLength[blockCount] = length;
    rawTrailer(block, used, inBlock, length);
    entriesStarting[blockCount++] = inBlock;
    block = null;
  }

  /**
   * Compresses the open block's used bytes through a scratch buffer and, if the result with its
   * trailer takes at least one page less than {@code length}, lays it out in the block (compressed
   * bytes, zeros, compressed length, used bytes, entry count, CRC32C of the stored bytes). Returns
   * the stored length: {@code length} when the block stays raw.
   */
  private int compress(int length) throws IOException {
    int room = room(length);
    if (room <= 0 || used == 0) {
      return length;
    }
    RunCompression.ScratchBuffer scratch = compression.acquire(length);
    try {
      long t0 = RunCompression.threadCpuNanos();
      int c;
      try {
        c = codec.compress(block, used, scratch.buffer, room);
      } catch (ProgramCodec.Failure f) {
        throw new CompressProgramException(
            f.getMessage(), "compressing block " + blockCount + " of", file.path(), f);
      }
      long cpu = RunCompression.threadCpuNanos() - t0;
      choice.tried(length, c < 0 ? length : storedLength(c), cpu);
      if (c < 0) {
        return length;
      }
      int stored = storedLength(c);
      compressedBlock(block, scratch.buffer, c, used, inBlock, stored);
      return stored;
    } finally {
      compression.release(scratch);
    }
  }

  /**
   * A scratch buffer for the block being opened, to compress it ahead ({@link CompressAhead}), or
   * null where the block is laid out in place: entries not from memory, a run that only probes the
   * codec, one thread, a compress program (no {@link CompressAhead} then), or no buffer free.
   */
  private ByteBuffer stage() {
    if (ahead == null || !choice.steady()) {
      return null;
    }
    staging = compression.tryAcquire(blockSize);
    if (staging == null) {
      return null;
    }
    return staging.buffer.slice(0, blockSize).order(ByteOrder.BIG_ENDIAN);
  }

  /**
   * Seals the staged open block: appends the one compressed ahead before it, then hands this one to
   * the compressing thread with an output buffer; with no output buffer free it is appended raw at
   * once.
   */
  private void sealStaged(int length) throws IOException {
    appendPending();
    int room = room(length);
    RunCompression.ScratchBuffer codecOut =
        room > 0 && used > 0 ? compression.tryAcquire(length) : null;
    Staged b = new Staged(staging, codecOut, blockCount, used, inBlock, length);
    staging = null;
    entriesStarting[blockCount++] = inBlock;
    block = null;
    if (codecOut == null) {
      append(b, -1);
      return;
    }
    ahead.submit(b.raw().buffer, b.used(), codecOut.buffer, room);
    pending = b;
  }

  /** Appends the block compressed ahead, if any: its result is awaited first. */
  private void appendPending() throws IOException {
    Staged b = pending;
    if (b == null) {
      return;
    }
    pending = null;
    int c;
    try {
      c = ahead.await();
    } catch (IOException | RuntimeException | Error e) {
      release(b);
      throw e;
    }
    choice.tried(b.length(), c < 0 ? b.length() : storedLength(c), ahead.cpuNanos());
    append(b, c);
  }

  /**
   * Lays out staged block {@code b} in the write-behind buffer: its {@code c} compressed bytes in
   * the codec's output if {@code c >= 0}, else raw; then gives its buffers back.
   */
  private void append(Staged b, int c) throws IOException {
    try {
      int length = b.length();
      int stored = c < 0 ? length : storedLength(c);
      ByteBuffer dst = out.reserve(stored).order(ByteOrder.BIG_ENDIAN);
      if (stored < length) {
        compressedBlock(dst, b.out().buffer, c, b.used(), b.entries(), stored);
      } else {
        dst.put(0, b.raw().buffer, 0, b.used());
        rawTrailer(dst, b.used(), b.entries(), length);
      }
      storedLength[b.index()] = stored;
      compression.wrote(length, stored);
    } finally {
      release(b);
    }
  }

  private void release(Staged b) {
    compression.release(b.raw());
    if (b.out() != null) {
      compression.release(b.out());
    }
  }

  /**
   * A block laid out in a scratch buffer ({@code raw}), to be compressed ahead into {@code out}
   * (null when it is stored raw) and appended in its turn.
   */
  private record Staged(
      RunCompression.ScratchBuffer raw,
      RunCompression.ScratchBuffer out,
      int index,
      int used,
      int entries,
      int length) {}

  /** The most compressed bytes a block of {@code length} may take: it must save a page at least. */
  private static int room(int length) {
    return length - Alignment.BYTES - RunLayout.COMPRESSED_TRAILER;
  }

  /**
   * Zeroes a raw block's padding after its {@code used} bytes (pool and scratch buffers are reused:
   * it must not leak old bytes) and writes its trailer: used bytes, entry count, CRC32C.
   */
  private static void rawTrailer(ByteBuffer dst, int used, int entries, int length) {
    for (int i = used; i < length - RunLayout.BLOCK_TRAILER; i++) {
      dst.put(i, (byte) 0);
    }
    dst.putInt(length - 12, used);
    dst.putInt(length - 8, entries);
    dst.putInt(length - 4, RunLayout.crc(dst, 0, length - 4));
  }

  /**
   * Lays out a compressed block in {@code dst}: the {@code c} bytes of {@code src}, zeros, and the
   * trailer (compressed length, used bytes, entry count, CRC32C of the stored bytes).
   */
  private static void compressedBlock(
      ByteBuffer dst, ByteBuffer src, int c, int used, int entries, int stored) {
    dst.put(0, src, 0, c);
    for (int i = c; i < stored - RunLayout.COMPRESSED_TRAILER; i++) {
      dst.put(i, (byte) 0);
    }
    dst.putInt(stored - 16, c);
    dst.putInt(stored - 12, used);
    dst.putInt(stored - 8, entries);
    dst.putInt(stored - 4, RunLayout.crc(dst, 0, stored - 4));
  }

  private static int storedLength(int compressed) {
    return (int) Alignment.roundUp((long) compressed + RunLayout.COMPRESSED_TRAILER);
  }

  /**
   * Writes the last block and the footer and waits until everything is written. Returns the run's
   * descriptor. The file stays open.
   */
  public RunDescriptor finish() throws IOException {
    if (finished) {
      throw new IllegalStateException("run " + file.path() + " is finished");
    }
    finished = true;
    int lastLength = blockSize;
    if (block != null) {
      lastLength = RunLayout.lastBlockLength(used, blockSize);
      if (staging == null) {
        out.retract(blockSize - lastLength);
      }
      seal(lastLength);
    } else if (blockCount == 0) {
      lastLength = 0;
    }
    appendPending();
    if (pages) {
      // Pages after the last start (to the end of the data) carry the entry count.
      long dataEnd = blockCount == 0 ? 0 : (long) (blockCount - 1) * blockSize + lastLength;
      int total = (int) (dataEnd / Alignment.BYTES);
      notePageTail(total);
    }
    RunDescriptor d =
        new RunDescriptor(
            file.parts(),
            layout,
            blockSize,
            entryCount,
            lastLength,
            checksum.hi(),
            checksum.lo(),
            Arrays.copyOf(entriesStarting, blockCount),
            Arrays.copyOf(firstKeyLength, blockCount),
            Arrays.copyOf(firstKey, blockCount),
            pages ? Arrays.copyOf(pageEntry, pageCount) : null,
            pages ? Arrays.copyOf(pageOffset, pageCount) : null,
            pages ? Arrays.copyOf(pageRecordBytes, pageCount) : null,
            recordBytes,
            codec,
            Arrays.copyOf(storedLength, blockCount),
            compression);
    if (ahead != null) {
      ahead.close();
    }
    out.write(footer(d));
    out.finish(false);
    out.close();
    return d;
  }

  private void notePageTail(int total) {
    while (pageCount < total) {
      growPages();
      pageEntry[pageCount] = entryCount;
      pageOffset[pageCount] = RunLayout.NO_ENTRY;
      pageRecordBytes[pageCount] = recordBytes;
      pageCount++;
    }
  }

  private void growPages() {
    if (pageCount == pageEntry.length) {
      pageEntry = Arrays.copyOf(pageEntry, pageCount * 2);
      pageOffset = Arrays.copyOf(pageOffset, pageCount * 2);
      pageRecordBytes = Arrays.copyOf(pageRecordBytes, pageCount * 2);
    }
  }

  private static ByteBuffer footer(RunDescriptor d) {
    int blocks = d.blockCount();
    int pages = d.pageCount();
    int len = Math.toIntExact(RunLayout.footerLength(blocks, pages));
    ByteBuffer f = ByteBuffer.allocate(len).order(ByteOrder.BIG_ENDIAN);
    f.put(RunLayout.FOOTER_MAGIC)
        .putLong(RunLayout.F_ENTRY_COUNT, d.recordCount())
        .putLong(RunLayout.F_SUM_HI, d.checksum().hi())
        .putLong(RunLayout.F_SUM_LO, d.checksum().lo())
        .putInt(RunLayout.F_BLOCK_COUNT, blocks)
        .putInt(RunLayout.F_LAST_LENGTH, blocks == 0 ? 0 : d.blockLength(blocks - 1))
        .putInt(RunLayout.F_PAGE_COUNT, pages)
        .putLong(RunLayout.F_RECORD_BYTES, d.recordBytes());
    int at = RunLayout.FOOTER_FIXED;
    for (int k = 0; k < blocks; k++, at += RunLayout.FOOTER_PER_BLOCK) {
      f.putInt(at, d.entriesStarting(k));
      f.putInt(at + 4, d.firstKeyLength(k));
      f.putInt(at + 8, d.storedLength(k));
      f.put(at + 12, d.firstKeyShared(k));
    }
    for (int p = 0; p < pages; p++, at += RunLayout.FOOTER_PER_PAGE) {
      f.putInt(at, (int) d.pageEntries()[p]); // the low 32 bits: the reader unwraps them
      f.putInt(at + 4, d.pageOffsets()[p]);
      f.putLong(at + 8, d.pageRecordBytes()[p]);
    }
    f.putLong(len - 16, d.footerOffset());
    f.putInt(len - 8, len);
    f.putInt(len - 4, RunLayout.crc(f, 0, len - 4));
    return f.clear();
  }

  /**
   * Stops the write-behind thread and returns its buffers (after a failure; {@link #finish()} does
   * it on success).
   */
  @Override
  public void close() throws IOException {
    try {
      if (ahead != null) {
        ahead.close(); // the block it may be compressing is done: its buffers can go back
      }
    } finally {
      if (pending != null) {
        release(pending);
        pending = null;
      }
      if (staging != null) {
        compression.release(staging);
        staging = null;
      }
      out.close();
    }
  }
}
