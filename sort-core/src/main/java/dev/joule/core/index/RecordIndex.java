package dev.joule.core.index;

import dev.joule.core.memory.Alignment;
import dev.joule.core.memory.ArenaView;
import dev.joule.core.memory.RecordArena;
import dev.joule.core.record.FixedLengthFormat;
import java.nio.ByteBuffer;

/**
 * The sort index of one arena: per record two packed {@code long}s, the <em>key word</em> and the
 * <em>ref word</em>, in parallel primitive arrays sized once (from the budget) and reused run after
 * run. Sorting permutes the entries, never the records.
 *
 * <pre>
 * key word  63                                                              0
 *           +----------------------------------------------------------------+
 *           | key bytes 0..7, big-endian, zero-padded ({@link KeyPrefix})      |
 *           +----------------------------------------------------------------+
 *
 * ref word  63          48 47       38 37      30 29                         0
 *           +-------------+-----------+----------+----------------------------+
 *           | key bytes   | reserved  |   slab   |  offset of the record      |
 *           | 8..9 (fixed)|   (0)     | (8 bits) |  in its slab (30 bits)     |
 *           | or length   |           |          |                            |
 *           | (variable)  |           |          |                            |
 *           +-------------+-----------+----------+----------------------------+
 *                          \_______________ address (38 bits) ______________/
 * </pre>
 *
 * <p>The <b>address</b> (slab and offset) grows with input order, because arenas are filled in
 * input order and the index is built slab by slab: comparing addresses is comparing input ordinals,
 * which is how sorters break ties stably without an ordinal field. The <b>top 16 bits</b> depend on
 * the format: for fixed-length records the length is implied by the format and the bits hold key
 * bytes 8 and 9 (zero-padded; {@link #tieMask()} is {@code 0xFFFF << 48}), so a gensort key (10
 * bytes) is sorted without touching the arena. A variable-length format (text lines, up to 65535
 * bytes) will store the record length there instead and set {@code tieMask()} to 0; sorters only
 * read those bits through {@code tieMask()}, so they need no change. Key bytes beyond those in the
 * index are read from the arena ({@link #compareKeyBytes}, {@link #keyByte}).
 *
 * <p><b>Memory bound</b>: 32 bytes per entry of capacity: the two arrays plus an alternate bank of
 * the same size that sorters use as ping-pong scratch ({@link #altKeys()}, {@link #altRefs()}).
 *
 * <p><b>Ownership</b>: one owner; not thread-safe, except that a sorter may work on disjoint ranges
 * from several threads. The index borrows the arena's {@link ArenaView}; it does not own the memory
 * and must not outlive the arena.
 */
public final class RecordIndex {
  /** Bits of the record offset inside its slab. */
  public static final int OFFSET_BITS = 30;

  /** Bits of the slab number. */
  public static final int SLAB_BITS = 8;

  /** Mask of the address (slab and offset) in a ref word. */
  public static final long ADDRESS_MASK = (1L << (OFFSET_BITS + SLAB_BITS)) - 1;

  /** Key bytes held in the top 16 bits of a fixed-length ref word. */
  public static final int EXTRA_KEY_BYTES = 2;

  private static final long TIE_MASK_FIXED = 0xFFFFL << 48;
  private static final int OFFSET_MASK = (1 << OFFSET_BITS) - 1;

  private final long[] keys;
  private final long[] refs;
  private final long[] altKeys;
  private final long[] altRefs;
  private final ByteBuffer[] slabs = new ByteBuffer[RecordArena.MAX_SLABS];
  private int size;
  private ArenaView view;
  private int keyOffset;
  private int keyLength;
  private int recordSize;
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

  /** Heap bytes per index entry: key word, ref word, and their alternate bank. */
  public static final int BYTES_PER_ENTRY = 32;

  /**
   * How much of a memory {@code budget} to give the arena so that the arena plus the index for its
   * records ({@link #BYTES_PER_ENTRY} each) fit: {@code budget * rs / (rs + 32)}, rounded down to
   * 4096.
   */
  public static long arenaBytesForBudget(long budget, int recordSize) {
    long arena = (long) ((double) budget * recordSize / (recordSize + BYTES_PER_ENTRY));
    return arena / Alignment.BYTES * Alignment.BYTES;
  }

  /** An empty index for up to {@code capacity} records (32 bytes of heap each). */
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
   * Indexes the whole records of {@code arena} in input order (slab by slab; a partial record at
   * the end of a slab's filled bytes is ignored) and returns their number. Replaces any previous
   * content. Serial: {@link #prepare} plus {@link #fill} over every slab.
   *
   * @throws IllegalArgumentException if the records do not fit the index's capacity
   */
  public int build(ArenaView arena, FixedLengthFormat format) {
    int total = prepare(arena, format);
    int at = 0;
    for (int s = 0; s < arena.slabCount(); s++) {
      int n = arena.filled(s) / recordSize;
      fill(s, 0, n, at);
      at += n;
    }
    return total;
  }

  /**
   * First half of a parallel {@link #build}: binds the index to {@code arena} and sets its size to
   * the number of whole records, which it returns. The entries are undefined until {@link #fill}
   * has covered them all: entry {@code i} belongs to the {@code i}-th record in slab order, so
   * callers can fill disjoint ranges from several threads (and must publish them, e.g. by joining
   * the tasks, before sorting).
   *
   * @throws IllegalArgumentException if the records do not fit the index's capacity
   */
  public int prepare(ArenaView arena, FixedLengthFormat format) {
    int rs = format.recordSize();
    int kl = format.key().length();
    int total = 0;
    for (int s = 0; s < arena.slabCount(); s++) {
      total += arena.filled(s) / rs;
    }
    if (total > keys.length) {
      throw new IllegalArgumentException(
          total + " records exceed the index capacity " + keys.length);
    }
    this.view = arena;
    this.keyOffset = format.key().offset();
    this.keyLength = kl;
    this.recordSize = rs;
    this.tieMask = kl > 8 ? TIE_MASK_FIXED : 0;
    for (int s = 0; s < arena.slabCount(); s++) {
      slabs[s] = arena.slab(s);
    }
    this.size = total;
    return total;
  }

  /**
   * Second half of a parallel {@link #build}: writes entries {@code [at, at + count)} for records
   * {@code [fromRecord, fromRecord + count)} of slab {@code slab}. Touches only those entries, so
   * disjoint ranges may be filled concurrently after {@link #prepare}.
   */
  public void fill(int slab, int fromRecord, int count, int at) {
    assert at >= 0 && at + count <= size : at + "+" + count + " > " + size;
    ByteBuffer b = slabs[slab];
    int rs = recordSize;
    int ko = keyOffset;
    int kl = keyLength;
    long slabBits = (long) slab << OFFSET_BITS;
    final long[] keys = this.keys;
    final long[] refs = this.refs;
    int off = fromRecord * rs;
    for (int i = at, end = at + count; i < end; i++, off += rs) {
      int k = off + ko;
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
    keyOffset = src.keyOffset;
    keyLength = src.keyLength;
    recordSize = src.recordSize;
    tieMask = src.tieMask;
  }

  /** Number of indexed records. */
  public int size() {
    return size;
  }

  /** Entries this index can hold. */
  public int capacity() {
    return keys.length;
  }

  /** Length of the key in bytes. */
  public int keyLength() {
    return keyLength;
  }

  /** Key bytes held in the index itself (key word plus tie bits): min(keyLength, 8 + extra). */
  public int indexedKeyBytes() {
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
    return altKeys;
  }

  /** Scratch bank for sorters, same capacity; its content is undefined between sorts. */
  public long[] altRefs() {
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

  /** The slab holding entry {@code i}'s record. */
  public int slab(int i) {
    return slabOf(refs[i]);
  }

  /** The offset of entry {@code i}'s record in its slab. */
  public int offset(int i) {
    return offsetOf(refs[i]);
  }

  /** The length of entry {@code i}'s record (fixed today). */
  public int recordLength(int i) {
    return recordSize;
  }

  /** The fixed record size of the indexed format. */
  public int recordSize() {
    return recordSize;
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

  /** The arena this index was built from. */
  public ArenaView arena() {
    return view;
  }

  /** Key byte {@code k} of the record at {@code ref}, read from the arena. */
  public int keyByte(long ref, int k) {
    return slabs[slabOf(ref)].get(offsetOf(ref) + keyOffset + k) & 0xFF;
  }

  /**
   * Compares key bytes {@code [from, keyLength)} of the records at two ref words as unsigned bytes
   * (memcmp order), reading the arena 8 bytes at a time. Does not allocate.
   */
  public int compareKeyBytes(long refA, long refB, int from) {
    return compareBytes(
        slabs[slabOf(refA)],
        offsetOf(refA) + keyOffset + from,
        slabs[slabOf(refB)],
        offsetOf(refB) + keyOffset + from,
        keyLength - from);
  }

  /**
   * The sort order of two entries given as (key word, ref word): key, then input order (address).
   * This is the order every {@code RunSorter} produces.
   */
  public int compareEntries(long keyA, long refA, long keyB, long refB) {
    int c = compareKeys(keyA, refA, keyB, refB);
    return c != 0 ? c : Long.compare(refA & ADDRESS_MASK, refB & ADDRESS_MASK);
  }

  /** Compares the full keys of two entries given as (key word, ref word); 0 if equal keys. */
  public int compareKeys(long keyA, long refA, long keyB, long refB) {
    if (keyA != keyB) {
      return Long.compareUnsigned(keyA, keyB);
    }
    long ta = refA & tieMask;
    long tb = refB & tieMask;
    if (ta != tb) {
      return Long.compareUnsigned(ta, tb);
    }
    int indexed = indexedKeyBytes();
    return indexed >= keyLength ? 0 : compareKeyBytes(refA, refB, indexed);
  }

  /**
   * Compares the full key of entry {@code i} of this index with entry {@code j} of {@code other}
   * (another arena's index of the same format), unsigned; 0 if equal. For merge cursors over
   * in-memory sorted arenas. Does not allocate.
   */
  public int compareKeyTo(int i, RecordIndex other, int j) {
    long ka = keys[i];
    long kb = other.keys[j];
    if (ka != kb) {
      return Long.compareUnsigned(ka, kb);
    }
    long ta = refs[i] & tieMask;
    long tb = other.refs[j] & tieMask;
    if (ta != tb) {
      return Long.compareUnsigned(ta, tb);
    }
    int from = indexedKeyBytes();
    if (from >= keyLength) {
      return 0;
    }
    long ra = refs[i];
    long rb = other.refs[j];
    ByteBuffer a = slabs[slabOf(ra)];
    ByteBuffer b = other.slabs[slabOf(rb)];
    int ia = offsetOf(ra) + keyOffset + from;
    int ib = offsetOf(rb) + other.keyOffset + from;
    return compareBytes(a, ia, b, ib, keyLength - from);
  }

  private static int compareBytes(ByteBuffer a, int ia, ByteBuffer b, int ib, int n) {
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

  /** Compares entries {@code i} and {@code j} in sort order (key, then input order). */
  public int compare(int i, int j) {
    return compareEntries(keys[i], refs[i], keys[j], refs[j]);
  }
}
