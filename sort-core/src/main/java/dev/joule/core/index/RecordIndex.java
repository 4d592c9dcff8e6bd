package dev.joule.core.index;

import dev.joule.core.memory.ArenaView;
import dev.joule.core.memory.RecordArena;
import dev.joule.core.record.FixedLengthFormat;
import dev.joule.core.valsort.RecordChecksum;
import java.nio.ByteBuffer;

/**
 * The sort index of one arena: per entry (record plus normalized key, {@link EntryLayout}) two
 * packed {@code long}s, the <em>key word</em> and the <em>ref word</em>, in parallel primitive
 * arrays sized once (from the budget) and reused run after run. Sorting permutes the index, never
 * the entries.
 *
 * <pre>
 * key word  63                                                              0
 *           +----------------------------------------------------------------+
 *           | key bytes 0..7, big-endian, zero-padded ({@link KeyPrefix})      |
 *           +----------------------------------------------------------------+
 *
 * ref word  63          48 47       38 37      30 29                         0
 *           +-------------+-----------+----------+----------------------------+
 *           | key bytes   | key length|   slab   |  offset of the entry       |
 *           | 8..9        | (variable |  (8 bits)|  in its slab (30 bits)     |
 *           | (zero-pad.) | keys, ≤1023)         |                            |
 *           +-------------+-----------+----------+----------------------------+
 *                                      \_________ address (38 bits) _________/
 * </pre>
 *
 * <p>The <b>address</b> (slab and offset) grows with input order, because arenas are filled in
 * input order and the index is built in slab order: comparing addresses is comparing input
 * ordinals, which is how sorters break ties stably without an ordinal field. The <b>top 16 bits</b>
 * hold key bytes 8 and 9, so a gensort key (10 bytes) is sorted without touching the arena. With
 * variable-length keys the next 10 bits hold the key length (capped at {@value
 * #MAX_INDEXED_LENGTH}; longer keys have their length read from the arena): a key that ends sorts
 * before every key that continues, and zero padding must not be mistaken for key bytes, so sorters
 * need the length at every byte they look at. Key bytes beyond those in the index are read from the
 * arena ({@link #compareKeyBytes}, {@link #keyByte}).
 *
 * <p><b>Order</b>: full normalized key (unsigned bytes, a key that is a prefix of another first),
 * then the {@link TieBreaker} if the sort has one, then input order. <b>Memory bound</b>: {@value
 * #BYTES_PER_ENTRY} bytes per entry of capacity: the two arrays plus an alternate bank of the same
 * size that sorters use as ping-pong scratch ({@link #altKeys()}, {@link #altRefs()}).
 *
 * <p><b>Ownership</b>: one owner; not thread-safe, except that sorters and {@link #fill} may work
 * on disjoint ranges from several threads. The index borrows the arena's {@link ArenaView}; it does
 * not own the memory and must not outlive the arena.
 */
public final class RecordIndex {
  /** Bits of the entry offset inside its slab. */
  public static final int OFFSET_BITS = 30;

  /** Bits of the slab number. */
  public static final int SLAB_BITS = 8;

  /** Mask of the address (slab and offset) in a ref word. */
  public static final long ADDRESS_MASK = (1L << (OFFSET_BITS + SLAB_BITS)) - 1;

  /** Key bytes held in the top 16 bits of a ref word. */
  public static final int EXTRA_KEY_BYTES = 2;

  /** Heap bytes per index entry: key word, ref word, and their alternate bank. */
  public static final int BYTES_PER_ENTRY = 32;

  /** Longest key length the ref word holds; longer keys' lengths are read from the arena. */
  public static final int MAX_INDEXED_LENGTH = (1 << 10) - 1;

  private static final long TIE_MASK = 0xFFFFL << 48;
  private static final int LENGTH_SHIFT = OFFSET_BITS + SLAB_BITS;
  private static final int OFFSET_MASK = (1 << OFFSET_BITS) - 1;

  private long[] keys;
  private long[] refs;
  private long[] altKeys;
  private long[] altRefs;
  private final ByteBuffer[] slabs = new ByteBuffer[RecordArena.MAX_SLABS];
  private int size;
  private ArenaView view;
  private EntryLayout layout;
  private TieBreaker tieBreaker;
  private int keyDistance;
  private int keyLength; // fixed keys; 0 when variable
  private boolean variable;
  private long tieMask;

  private RecordIndex(int capacity) {
    if (capacity < 0) {
      throw new IllegalArgumentException("index capacity " + capacity + " is negative");
    }
    keys = new long[capacity];
    refs = new long[capacity];
    altKeys = new long[capacity];
    altRefs = new long[capacity];
  }

  /**
   * How much of a memory {@code budget} to give the arena so that the arena plus the index for its
   * records ({@link #BYTES_PER_ENTRY} each) fit: {@code budget * rs / (rs + 32)}, rounded down to
   * 4096.
   */
  public static long arenaBytesForBudget(long budget, int recordSize) {
    long arena = (long) ((double) budget * recordSize / (recordSize + BYTES_PER_ENTRY));
    return arena / dev.joule.core.memory.Alignment.BYTES * dev.joule.core.memory.Alignment.BYTES;
  }

  /** An empty index for up to {@code capacity} entries ({@value #BYTES_PER_ENTRY} bytes each). */
  public static RecordIndex allocate(int capacity) {
    return new RecordIndex(capacity);
  }

  /** An empty index large enough for a full {@code arena} of {@code format} records. */
  public static RecordIndex forArena(RecordArena arena, FixedLengthFormat format) {
    long n = 0;
    for (int s = 0; s < arena.slabCount(); s++) {
      n += arena.slabCapacity(s) / format.recordSize();
    }
    if (n > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException(n + " records do not fit one index");
    }
    return new RecordIndex((int) n);
  }

  /**
   * Binds the index to {@code arena}, whose entries have {@code layout}, with no entries yet; ties
   * of equal keys go to {@code tieBreaker} (null: input order only). Entries are then added in
   * input order with {@link #add} (any layout) or {@link #fill} (fixed-size layouts).
   */
  public void bind(ArenaView arena, EntryLayout layout, TieBreaker tieBreaker) {
    this.view = arena;
    this.layout = layout;
    this.tieBreaker = tieBreaker;
    this.keyDistance = layout.keyDistance();
    this.keyLength = layout.fixedKeyLength();
    this.variable = layout.variableKey();
    this.tieMask = variable || keyLength > 8 ? TIE_MASK : 0;
    for (int s = 0; s < arena.slabCount(); s++) {
      slabs[s] = arena.slab(s);
    }
    this.size = 0;
  }

  /**
   * Forgets the arena the index was bound to and its entries, keeping the arrays for a later {@link
   * #bind}: for an owner that gives the arena back (its memory is then gone) and keeps the index.
   */
  public void unbind() {
    java.util.Arrays.fill(slabs, null);
    view = null;
    size = 0;
  }

  /**
   * Indexes the whole records of {@code arena} in input order (slab by slab; a partial record at
   * the end of a slab's filled bytes is ignored) and returns their number. Replaces any previous
   * content. Serial: {@link #prepare} plus {@link #fill} over every slab.
   *
   * @throws IllegalArgumentException if the records do not fit the index's capacity
   */
  public int build(ArenaView arena, FixedLengthFormat format) {
    int total = prepare(arena, format);
    int at = 0;
    int rs = format.recordSize();
    for (int s = 0; s < arena.slabCount(); s++) {
      int n = arena.filled(s) / rs;
      fill(s, 0, n, at);
      at += n;
    }
    return total;
  }

  /**
   * First half of a parallel {@link #build}: binds the index to {@code arena} ({@link
   * EntryLayout#of}) and sets its size to the number of whole records, which it returns. The
   * entries are undefined until {@link #fill} has covered them all: entry {@code i} belongs to the
   * {@code i}-th record in slab order, so callers can fill disjoint ranges from several threads
   * (and must publish them, e.g. by joining the tasks, before sorting).
   *
   * @throws IllegalArgumentException if the records do not fit the index's capacity
   */
  public int prepare(ArenaView arena, FixedLengthFormat format) {
    return prepare(arena, EntryLayout.of(format), null);
  }

  /**
   * {@link #prepare(ArenaView, FixedLengthFormat)} for any fixed-size {@code layout}, with the
   * given tie breaker (null: none).
   */
  public int prepare(ArenaView arena, EntryLayout layout, TieBreaker tieBreaker) {
    if (!layout.fixedSize()) {
      throw new IllegalArgumentException(layout + " has no fixed entry size: use add()");
    }
    int es = layout.fixedEntrySize();
    int total = 0;
    for (int s = 0; s < arena.slabCount(); s++) {
      total += arena.filled(s) / es;
    }
    if (total > keys.length) {
      throw new IllegalArgumentException(
          total + " records exceed the index capacity " + keys.length);
    }
    bind(arena, layout, tieBreaker);
    this.size = total;
    return total;
  }

  /**
   * Second half of a parallel {@link #build}: writes entries {@code [at, at + count)} for the
   * fixed-size entries {@code [fromEntry, fromEntry + count)} of slab {@code slab}. Touches only
   * those entries, so disjoint ranges may be filled concurrently after {@link #prepare}.
   */
  public void fill(int slab, int fromEntry, int count, int at) {
    assert at >= 0 && at + count <= size : at + "+" + count + " > " + size;
    ByteBuffer b = slabs[slab];
    int es = layout.fixedEntrySize();
    int kd = keyDistance;
    int kl = keyLength;
    long slabBits = (long) slab << OFFSET_BITS;
    final long[] keys = this.keys;
    final long[] refs = this.refs;
    int off = fromEntry * es;
    for (int i = at, end = at + count; i < end; i++, off += es) {
      int k = off + kd;
      keys[i] = KeyPrefix.of(b, k, kl);
      long extra = 0;
      if (kl > 8) {
        extra = (b.get(k + 8) & 0xFFL) << 56;
        if (kl > 9) {
          extra |= (b.get(k + 9) & 0xFFL) << 48;
        }
      }
      refs[i] = extra | slabBits | off;
    }
  }

  /**
   * Makes room for {@code capacity} entries, keeping the entries added so far (the alternate bank's
   * content is dropped: it is scratch between sorts). For an owner that sizes its index as data
   * arrives; until this returns both the old and the new arrays are live, {@link #BYTES_PER_ENTRY}
   * bytes per entry of each, which such an owner counts.
   *
   * @throws IllegalArgumentException if {@code capacity} is below the current size
   */
  public void growTo(int capacity) {
    if (capacity < size) {
      throw new IllegalArgumentException(
          "capacity " + capacity + " below the " + size + " entries held");
    }
    keys = java.util.Arrays.copyOf(keys, capacity);
    refs = java.util.Arrays.copyOf(refs, capacity);
    // The alternate bank is made again when a sorter or a parser first asks for it: an index that
    // grows several times while a session fills it leaves each step's bank as garbage on the heap
    // otherwise (the collector's old generation keeps that room: peak RSS above the budget).
    altKeys = null;
    altRefs = null;
  }

  /**
   * Takes slab {@code slab} of the bound arena into the index, after its owner allocated it (an
   * arena made by {@code RecordArena.reserve} or {@code reserveGrowing}, whose later slabs did not
   * exist at {@link #bind}); the entries held stay.
   */
  public void bindSlab(int slab) {
    slabs[slab] = view.slab(slab);
  }

  /** Whether another entry fits ({@link #add}). */
  public boolean hasRoom() {
    return size < keys.length;
  }

  /**
   * Appends the entry at {@code offset} of slab {@code slab} (entries must be added in input order)
   * and returns its position in the index.
   *
   * @throws IllegalStateException if the index is full
   */
  public int add(int slab, int offset) {
    if (size >= keys.length) {
      throw new IllegalStateException("index full at " + size + " entries");
    }
    int i = size++;
    words(slab, offset, keys, refs, i);
    return i;
  }

  /**
   * Writes the key and ref words of the entry at {@code offset} of slab {@code slab} to {@code
   * keysOut[i]} and {@code refsOut[i]}, as {@link #add} stores them, without adding the entry.
   * Reads only the bound arena, so parse threads that fill disjoint parts of it may call it at once
   * (each into slots of its own), and {@link #appendAlternates} then adds what they wrote.
   */
  public void words(int slab, int offset, long[] keysOut, long[] refsOut, int i) {
    ByteBuffer b = slabs[slab];
    int k = offset + keyDistance;
    int kl = variable ? layout.keyLength(b, offset) : keyLength;
    long extra = 0;
    if (kl > 8) {
      extra = (b.get(k + 8) & 0xFFL) << 56;
      if (kl > 9) {
        extra |= (b.get(k + 9) & 0xFFL) << 48;
      }
    }
    if (variable) {
      extra |= (long) Math.min(kl, MAX_INDEXED_LENGTH) << LENGTH_SHIFT;
    }
    keysOut[i] = KeyPrefix.of(b, k, kl);
    refsOut[i] = extra | (long) slab << OFFSET_BITS | offset;
  }

  /**
   * Appends the entries whose words parse threads wrote ({@link #words}) to {@code [from, from +
   * count)} of the alternate bank ({@link #altKeys()}, {@link #altRefs()}), which is free until the
   * index is sorted.
   *
   * @throws IllegalArgumentException if the range is outside the bank or the entries do not fit
   */
  public void appendAlternates(int from, int count) {
    if (from < 0 || count < 0 || from + count > keys.length || size + count > keys.length) {
      throw new IllegalArgumentException(
          "entries [" + from + ", +" + count + ") after " + size + " of " + keys.length);
    }
    System.arraycopy(altKeys(), from, keys, size, count);
    System.arraycopy(altRefs(), from, refs, size, count);
    size += count;
  }

  /** Makes this index an exact copy of {@code src} (same arena); for benchmarks and tests. */
  public void copyFrom(RecordIndex src) {
    if (src.size > keys.length) {
      throw new IllegalArgumentException(src.size + " entries exceed capacity " + keys.length);
    }
    System.arraycopy(src.keys, 0, keys, 0, src.size);
    System.arraycopy(src.refs, 0, refs, 0, src.size);
    System.arraycopy(src.slabs, 0, slabs, 0, slabs.length);
    size = src.size;
    view = src.view;
    layout = src.layout;
    tieBreaker = src.tieBreaker;
    keyDistance = src.keyDistance;
    keyLength = src.keyLength;
    variable = src.variable;
    tieMask = src.tieMask;
  }

  /** Number of indexed entries. */
  public int size() {
    return size;
  }

  /** Entries this index can hold. */
  public int capacity() {
    return keys.length;
  }

  /** The layout of the indexed entries. */
  public EntryLayout layout() {
    return layout;
  }

  /** The tie breaker of equal keys, or null (input order only). */
  public TieBreaker tieBreaker() {
    return tieBreaker;
  }

  /** Whether keys vary in length ({@link #keyLength(long)} per entry). */
  public boolean variableKeys() {
    return variable;
  }

  /** Length of every key in bytes for fixed-length keys; 0 when keys vary in length. */
  public int keyLength() {
    return keyLength;
  }

  /** Key length of the entry at {@code ref}. */
  public int keyLength(long ref) {
    if (!variable) {
      return keyLength;
    }
    int l = (int) (ref >>> LENGTH_SHIFT) & MAX_INDEXED_LENGTH;
    return l < MAX_INDEXED_LENGTH ? l : layout.keyLength(slabs[slabOf(ref)], offsetOf(ref));
  }

  /**
   * Key bytes held in the index itself (key word plus tie bits): min(keyLength, 10) for fixed keys,
   * 10 for variable keys (shorter keys are zero-padded: check {@link #keyLength(long)}).
   */
  public int indexedKeyBytes() {
    if (variable) {
      return 8 + EXTRA_KEY_BYTES;
    }
    return tieMask == 0 ? Math.min(keyLength, 8) : Math.min(keyLength, 8 + EXTRA_KEY_BYTES);
  }

  /** The bits of a ref word that hold key bytes 8..9 (0 when none are held). */
  public long tieMask() {
    return tieMask;
  }

  /** The key-word array (live, not a copy): entry {@code i}'s {@link KeyPrefix}. For sorters. */
  public long[] keys() {
    return keys;
  }

  /** The ref-word array (live, not a copy). For sorters. */
  public long[] refs() {
    return refs;
  }

  /** Scratch bank for sorters, same capacity; its content is undefined between sorts. */
  public long[] altKeys() {
    if (altKeys == null) {
      altKeys = new long[keys.length];
    }
    return altKeys;
  }

  /** Scratch bank for sorters, same capacity; its content is undefined between sorts. */
  public long[] altRefs() {
    if (altRefs == null) {
      altRefs = new long[keys.length];
    }
    return altRefs;
  }

  /** The key prefix of entry {@code i} (first 8 key bytes, big-endian unsigned). */
  public long prefix(int i) {
    assert i >= 0 && i < size : i;
    return keys[i];
  }

  /** The packed ref word of entry {@code i}. */
  public long ref(int i) {
    assert i >= 0 && i < size : i;
    return refs[i];
  }

  /** The slab holding entry {@code i}. */
  public int slab(int i) {
    return slabOf(refs[i]);
  }

  /** The offset of entry {@code i} in its slab. */
  public int offset(int i) {
    return offsetOf(refs[i]);
  }

  /** The record size of fixed-size records (0 for variable records). */
  public int recordSize() {
    return layout.recordSize();
  }

  /** The slab number in a ref word. */
  public static int slabOf(long ref) {
    return (int) (ref >>> OFFSET_BITS) & ((1 << SLAB_BITS) - 1);
  }

  /** The in-slab offset in a ref word. */
  public static int offsetOf(long ref) {
    return (int) ref & OFFSET_MASK;
  }

  /** The read-only buffer of slab {@code slab} of the indexed arena (shared; absolute use only). */
  public ByteBuffer slabBuffer(int slab) {
    return slabs[slab];
  }

  /** The bytes of a cache line on the machines joule runs on (x86-64, and the AArch64 servers). */
  public static final int CACHE_LINE = 64;

  /**
   * Reads the entry at {@code ref} a cache line past its start (or the slab's last byte, if that is
   * nearer), for a caller that touches the entries of a sorted batch ahead of copying them: they
   * lie at random places in the arena, and an entry that spans two lines (a keyed line: its key,
   * then the line) misses twice. Touching both lines in a loop with nothing else in it lets the CPU
   * wait for the misses of many entries at once; copied one by one, they wait in turn. One sort of
   * a 245 MB CSV in memory (async-profiler, 2026-12-07): its output phase took 393 samples on the
   * main thread against 512 when only the first line was touched.
   */
  public byte secondLine(long ref) {
    ByteBuffer slab = slabs[slabOf(ref)];
    return slab.get(Math.min(offsetOf(ref) + CACHE_LINE, slab.limit() - 1));
  }

  /** The arena this index was built from. */
  public ArenaView arena() {
    return view;
  }

  /** Key byte {@code k} (below the key's length) of the entry at {@code ref}, from the arena. */
  public int keyByte(long ref, int k) {
    return slabs[slabOf(ref)].get(offsetOf(ref) + keyDistance + k) & 0xFF;
  }

  /**
   * Rewrites the words of entries {@code [from, to)} of bank (k, r) to hold key bytes {@code [at,
   * at + 10)} instead: bytes at..at + 7 in the key word, the next two in the ref word's tie bits,
   * zero-padded where a key ends (the length bits and the address stay). For sorters whose entries
   * agree on the bytes before {@code at}: one arena read per entry, after which the next ten bytes
   * are compared in the words.
   */
  public void loadKeyWords(long[] k, long[] r, int from, int to, int at) {
    final ByteBuffer[] slabs = this.slabs;
    final int kd = keyDistance + at;
    for (int i = from; i < to; i++) {
      long ref = r[i];
      int rest = keyLength(ref) - at;
      ByteBuffer b = slabs[slabOf(ref)];
      int p = offsetOf(ref) + kd;
      long word;
      long tie;
      if (rest >= 8 + EXTRA_KEY_BYTES || (rest > 0 && p + 8 + EXTRA_KEY_BYTES <= b.limit())) {
        // the bytes after a key's end belong to its record or the next entry: masked below
        word = b.getLong(p);
        tie = (b.getShort(p + 8) & 0xFFFFL) << 48;
      } else {
        word = 0;
        tie = 0;
        for (int j = 0; j < rest && j < 8 + EXTRA_KEY_BYTES; j++) {
          long v = b.get(p + j) & 0xFFL;
          if (j < 8) {
            word |= v << (56 - 8 * j);
          } else {
            tie |= v << (56 - 8 * (j - 8));
          }
        }
      }
      if (rest < 8 + EXTRA_KEY_BYTES) {
        word &= rest >= 8 ? -1L : rest <= 0 ? 0 : -1L << (64 - 8 * rest);
        tie &= rest <= 8 ? 0 : rest == 9 ? 0xFFL << 56 : TIE_MASK;
      }
      k[i] = word;
      r[i] = (ref & ~TIE_MASK) | tie;
    }
  }

  /**
   * The length of the longest prefix shared by the keys of the entries at {@code r[from, to)},
   * which agree on their bytes before {@code start} and are all at least that long. Reads each key
   * from {@code start} to where it differs from the first entry's key (8 bytes at a time).
   */
  public int sharedKeyPrefix(long[] r, int from, int to, int start) {
    long r0 = r[from];
    ByteBuffer a = slabs[slabOf(r0)];
    int ia = offsetOf(r0) + keyDistance;
    int shared = keyLength(r0);
    for (int i = from + 1; i < to && shared > start; i++) {
      long ref = r[i];
      int n = Math.max(0, Math.min(shared, keyLength(ref)) - start);
      ByteBuffer b = slabs[slabOf(ref)];
      shared = start + mismatch(a, ia + start, b, offsetOf(ref) + keyDistance + start, n);
    }
    return shared;
  }

  /** The first of {@code n} bytes where the two buffers differ, or {@code n}. */
  private static int mismatch(ByteBuffer a, int ia, ByteBuffer b, int ib, int n) {
    int i = 0;
    for (; i + 8 <= n; i += 8) {
      long x = a.getLong(ia + i) ^ b.getLong(ib + i);
      if (x != 0) {
        return i + (Long.numberOfLeadingZeros(x) >>> 3);
      }
    }
    for (; i < n; i++) {
      if (a.get(ia + i) != b.get(ib + i)) {
        return i;
      }
    }
    return n;
  }

  /**
   * Compares key bytes {@code [from, length)} of the entries at two ref words as unsigned bytes,
   * then their lengths (a key that ends first sorts first), reading the arena 8 bytes at a time.
   * Does not allocate.
   */
  public int compareKeyBytes(long refA, long refB, int from) {
    int la = keyLength(refA);
    int lb = keyLength(refB);
    int n = Math.min(la, lb) - from;
    int c =
        n <= 0
            ? 0
            : compareBytes(
                slabs[slabOf(refA)],
                offsetOf(refA) + keyDistance + from,
                slabs[slabOf(refB)],
                offsetOf(refB) + keyDistance + from,
                n);
    return c != 0 ? c : Integer.compare(la, lb);
  }

  /**
   * Compares the records of two entries with equal keys by the tie breaker; 0 when there is none.
   */
  public int compareTie(long refA, long refB) {
    return compareRecords(tieBreaker, refA, refB);
  }

  /** Adds the record of the entry at ref word {@code ref} to {@code group}; false if it is full. */
  public boolean addToGroup(TieGroup group, long ref) {
    ByteBuffer b = slabs[slabOf(ref)];
    int e = offsetOf(ref);
    return group.add(b, layout.recordStart(b, e), layout.recordLength(b, e));
  }

  /**
   * Compares the records of two entries by {@code t} (0 when {@code t} is null): the tie breaker,
   * or another order of equal keys (unique mode's {@code sameKey}).
   */
  public int compareRecords(TieBreaker t, long refA, long refB) {
    if (t == null) {
      return 0;
    }
    ByteBuffer a = slabs[slabOf(refA)];
    ByteBuffer b = slabs[slabOf(refB)];
    int ea = offsetOf(refA);
    int eb = offsetOf(refB);
    return t.compare(
        a,
        layout.recordStart(a, ea),
        layout.recordLength(a, ea),
        b,
        layout.recordStart(b, eb),
        layout.recordLength(b, eb));
  }

  /** Adds the record of the entry at ref word {@code ref} to {@code sum}. */
  public void addRecordTo(RecordChecksum sum, long ref) {
    addRecordTo(sum, ref, 1);
  }

  /**
   * Adds the record of the entry at ref word {@code ref} to {@code sum} {@code times} (≥ 1) times.
   */
  public void addRecordTo(RecordChecksum sum, long ref, long times) {
    ByteBuffer b = slabs[slabOf(ref)];
    int e = offsetOf(ref);
    int crc = sum.addRecord(b, layout.recordStart(b, e), layout.recordLength(b, e));
    sum.addCrc(crc, times - 1); // the CRC once, no checksum object per group
  }

  /**
   * The sort order of two entries given as (key word, ref word): key, tie breaker, then input order
   * (address). This is the order every {@code RunSorter} produces.
   */
  public int compareEntries(long keyA, long refA, long keyB, long refB) {
    int c = compareKeys(keyA, refA, keyB, refB);
    if (c == 0) {
      c = compareTie(refA, refB);
    }
    return c != 0 ? c : Long.compare(refA & ADDRESS_MASK, refB & ADDRESS_MASK);
  }

  /**
   * Compares the full keys of two entries given as (key word, ref word); 0 if equal keys. Where the
   * ten indexed bytes differ they decide, even for variable keys: a key that ended there reads as
   * zeros, below the other key's non-zero byte, and it is a prefix of that key.
   */
  public int compareKeys(long keyA, long refA, long keyB, long refB) {
    return compareKeysFrom(keyA, refA, keyB, refB, 8 + EXTRA_KEY_BYTES);
  }

  /**
   * {@link #compareKeys} for words that hold the key bytes {@code [tailFrom - 10, tailFrom)} of two
   * keys that agree on the bytes before ({@link #loadKeyWords}); the arena decides from {@code
   * tailFrom} on.
   */
  public int compareKeysFrom(long keyA, long refA, long keyB, long refB, int tailFrom) {
    if (keyA != keyB) {
      return Long.compareUnsigned(keyA, keyB);
    }
    long ta = refA & tieMask;
    long tb = refB & tieMask;
    if (ta != tb) {
      return Long.compareUnsigned(ta, tb);
    }
    // variable: where equal words end in a key's padding, the lengths decide (compareKeyBytes)
    return variable || tailFrom < keyLength ? compareKeyBytes(refA, refB, tailFrom) : 0;
  }

  /**
   * Compares the full key of entry {@code i} of this index with entry {@code j} of {@code other}
   * (another arena's index of the same layout), unsigned; 0 if equal. Does not allocate.
   */
  public int compareKeyTo(int i, RecordIndex other, int j) {
    long ka = keys[i];
    long kb = other.keys[j];
    if (ka != kb) {
      return Long.compareUnsigned(ka, kb);
    }
    long ra = refs[i];
    long rb = other.refs[j];
    int la = keyLength(ra);
    int lb = other.keyLength(rb);
    int from = Math.min(8, Math.min(la, lb));
    int n = Math.min(la, lb) - from;
    int c =
        n <= 0
            ? 0
            : compareBytes(
                slabs[slabOf(ra)],
                offsetOf(ra) + keyDistance + from,
                other.slabs[slabOf(rb)],
                offsetOf(rb) + other.keyDistance + from,
                n);
    return c != 0 ? c : Integer.compare(la, lb);
  }

  /** Unsigned lexicographic comparison of {@code n} bytes, 8 at a time (big-endian buffers). */
  public static int compareBytes(ByteBuffer a, int ia, ByteBuffer b, int ib, int n) {
    int i = 0;
    for (; i + 8 <= n; i += 8) {
      long x = a.getLong(ia + i);
      long y = b.getLong(ib + i);
      if (x != y) {
        return Long.compareUnsigned(x, y);
      }
    }
    for (; i < n; i++) {
      int x = a.get(ia + i) & 0xFF;
      int y = b.get(ib + i) & 0xFF;
      if (x != y) {
        return x - y;
      }
    }
    return 0;
  }

  /** Compares entries {@code i} and {@code j} in sort order (key, tie breaker, input order). */
  public int compare(int i, int j) {
    return compareEntries(keys[i], refs[i], keys[j], refs[j]);
  }
}
