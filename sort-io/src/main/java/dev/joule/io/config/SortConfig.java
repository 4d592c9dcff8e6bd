package dev.joule.io.config;

import dev.joule.core.key.SortKey;
import dev.joule.core.record.RecordFormat;
import dev.joule.io.hooks.SortHooks;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Everything a sort needs to know besides its input and output: the record format, the memory
 * budget, worker threads, temp directories (one per stripe), transfer sizes, the direct-I/O policy
 * and an optional merge fan-in. Built with {@link #builder()}; every setter validates its argument
 * and names it in the error, so a bad option fails before any I/O.
 *
 * <p>Immutable and thread-safe.
 */
public final class SortConfig {
  /**
   * Smallest memory budget: room for the input and output transfer buffers and a few MiB of
   * records. A budget below this is refused before any I/O (docs/reliability.md P3).
   */
  public static final DataSize MIN_MEMORY = DataSize.ofMiB(8);

  /** Default memory budget of the API: 256 MiB (the CLI derives its own from the machine). */
  public static final DataSize DEFAULT_MEMORY = DataSize.ofMiB(256);

  private final RecordFormat format;
  private final SortKey key;
  private final LastResort lastResort;
  private final boolean unique;
  private final DataSize memoryBudget;
  private final int threads;
  private final List<Path> tempDirs;
  private final TransferSizes transferSizes;
  private final DirectIoPolicy directIo;
  private final int fanIn;
  private final NoticeSink notices;
  private final ProgressListener progress;
  private final SortHooks hooks;

  static {
    SortHooks.install(
        new SortHooks.Access() {
          @Override
          public SortHooks get(SortConfig config) {
            return config.hooks;
          }

          @Override
          public SortHooks get(Builder builder) {
            return builder.hooks;
          }

          @Override
          public void set(Builder builder, SortHooks hooks) {
            builder.hooks = hooks;
          }
        });
  }

  private SortConfig(Builder b) {
    this.hooks = b.hooks;
    this.format = b.format;
    this.key = b.key;
    this.lastResort = b.lastResort;
    this.unique = b.unique;
    this.memoryBudget = b.memoryBudget;
    this.threads = b.threads;
    this.tempDirs = List.copyOf(b.tempDirs.isEmpty() ? List.of(defaultTempDir()) : b.tempDirs);
    this.transferSizes = b.transferSizes;
    this.directIo = b.directIo;
    this.fanIn = b.fanIn;
    this.notices = b.notices;
    this.progress = b.progress;
  }

  /**
   * A builder with the defaults: gensort records, 256 MiB, all cores, java.io.tmpdir, 4 MiB, AUTO.
   */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder starting from this configuration. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.format = format;
    b.key = key;
    b.lastResort = lastResort;
    b.unique = unique;
    b.memoryBudget = memoryBudget;
    b.threads = threads;
    b.tempDirs.addAll(tempDirs);
    b.transferSizes = transferSizes;
    b.directIo = directIo;
    b.fanIn = fanIn;
    b.notices = notices;
    b.progress = progress;
    b.hooks = hooks;
    return b;
  }

  /** The format of the records: fixed size, lines or length-prefixed rows. */
  public RecordFormat format() {
    return format;
  }

  /**
   * What records are sorted by, or null for the format's own: a fixed format's byte-range key, the
   * whole record for lines and rows.
   */
  public SortKey key() {
    return key;
  }

  /** What orders records with equal keys: input order (default) or the whole records. */
  public LastResort lastResort() {
    return lastResort;
  }

  /** Whether only the first of each run of records with equal keys is output. */
  public boolean unique() {
    return unique;
  }

  /** Off-heap record memory plus the heap index and the I/O buffers must fit in this. */
  public DataSize memoryBudget() {
    return memoryBudget;
  }

  /** Worker threads for sorting and merging. */
  public int threads() {
    return threads;
  }

  /** Temp directories, one per stripe, in stripe order. */
  public List<Path> tempDirs() {
    return tempDirs;
  }

  /** Bytes per read or write of each file kind. */
  public TransferSizes transferSizes() {
    return transferSizes;
  }

  /** Bytes per read or write of {@code kind}. */
  public int transferSize(FileKind kind) {
    return transferSizes.of(kind);
  }

  /** When input and temp files are read and written with O_DIRECT. */
  public DirectIoPolicy directIo() {
    return directIo;
  }

  /** The requested merge fan-in, or 0 to derive it from memory and the open-file limit. */
  public int fanIn() {
    return fanIn;
  }

  /** Where one-line notices (e.g. a direct-I/O fallback) go. */
  public NoticeSink notices() {
    return notices;
  }

  /** Where progress goes. */
  public ProgressListener progress() {
    return progress;
  }

  /** Default temp directory (one stripe): {@code java.io.tmpdir}. */
  public static Path defaultTempDir() {
    return Path.of(System.getProperty("java.io.tmpdir"));
  }

  @Override
  public String toString() {
    return "SortConfig{format="
        + format
        + (key == null ? "" : ", key=" + key)
        + (lastResort == LastResort.NONE ? "" : ", lastResort=" + lastResort)
        + (unique ? ", unique" : "")
        + ", memory="
        + memoryBudget
        + ", threads="
        + threads
        + ", tempDirs="
        + tempDirs
        + ", transfer="
        + transferSizes
        + ", directIo="
        + directIo
        + ", fanIn="
        + (fanIn == 0 ? "auto" : fanIn)
        + "}";
  }

  /** Builds a {@link SortConfig}; not thread-safe. */
  public static final class Builder {
    private RecordFormat format = RecordFormat.gensort();
    private SortKey key;
    private LastResort lastResort = LastResort.NONE;
    private boolean unique;
    private DataSize memoryBudget = DEFAULT_MEMORY;
    private int threads = Runtime.getRuntime().availableProcessors();
    private final List<Path> tempDirs = new ArrayList<>();
    private TransferSizes transferSizes = TransferSizes.defaults();
    private DirectIoPolicy directIo = DirectIoPolicy.AUTO;
    private int fanIn;
    private NoticeSink notices = NoticeSink.IGNORE;
    private ProgressListener progress = ProgressListener.NONE;
    private SortHooks hooks = SortHooks.NONE;

    private Builder() {}

    /** The record format; default: gensort records (100 bytes, 10-byte key at offset 0). */
    public Builder format(RecordFormat format) {
      this.format = Objects.requireNonNull(format, "format");
      return this;
    }

    /**
     * What records are sorted by (null: the format's own key: a fixed format's byte range, or the
     * whole record).
     */
    public Builder key(SortKey key) {
      this.key = key;
      return this;
    }

    /** What orders records with equal keys; default {@link LastResort#NONE} (stable). */
    public Builder lastResort(LastResort lastResort) {
      this.lastResort = Objects.requireNonNull(lastResort, "lastResort");
      return this;
    }

    /** Outputs only the first of each run of records with equal keys; default false. */
    public Builder unique(boolean unique) {
      this.unique = unique;
      return this;
    }

    /** The memory budget; at least {@link #MIN_MEMORY}. */
    public Builder memoryBudget(DataSize budget) {
      Objects.requireNonNull(budget, "memoryBudget");
      if (budget.compareTo(MIN_MEMORY) < 0) {
        throw new IllegalArgumentException(
            "memory budget " + budget + " is below the minimum " + MIN_MEMORY);
      }
      this.memoryBudget = budget;
      return this;
    }

    /** Worker threads for sorting and merging, 1..256. */
    public Builder threads(int threads) {
      if (threads < 1 || threads > 256) {
        throw new IllegalArgumentException("threads " + threads + " is outside 1..256");
      }
      this.threads = threads;
      return this;
    }

    /**
     * The temp directories, one per stripe (replaces any set before); empty means java.io.tmpdir.
     */
    public Builder tempDirs(List<Path> dirs) {
      tempDirs.clear();
      for (Path d : dirs) {
        tempDirs.add(Objects.requireNonNull(d, "temp dir"));
      }
      return this;
    }

    /** The transfer sizes of every file kind; default 4 MiB each. */
    public Builder transferSizes(TransferSizes sizes) {
      this.transferSizes = Objects.requireNonNull(sizes, "transferSizes");
      return this;
    }

    /** The transfer size of one file kind; a positive multiple of 4096. */
    public Builder transferSize(FileKind kind, DataSize size) {
      if (size.bytes() > Integer.MAX_VALUE) {
        throw new IllegalArgumentException(
            "transfer size for " + kind + " " + size + " is above 2 GiB");
      }
      this.transferSizes = transferSizes.with(kind, (int) size.bytes());
      return this;
    }

    /** When to use O_DIRECT; default {@link DirectIoPolicy#AUTO}. */
    public Builder directIo(DirectIoPolicy policy) {
      this.directIo = Objects.requireNonNull(policy, "directIo");
      return this;
    }

    /** Merge fan-in, at least 2; 0 (the default) derives it from memory and the open-file limit. */
    public Builder fanIn(int fanIn) {
      if (fanIn != 0 && fanIn < 2) {
        throw new IllegalArgumentException(
            "fan-in " + fanIn + " must be at least 2 (or 0 for automatic)");
      }
      this.fanIn = fanIn;
      return this;
    }

    /** Where one-line notices go; default: dropped. */
    public Builder notices(NoticeSink notices) {
      this.notices = Objects.requireNonNull(notices, "notices");
      return this;
    }

    /** Where progress goes; default: nowhere. */
    public Builder progress(ProgressListener progress) {
      this.progress = Objects.requireNonNull(progress, "progress");
      return this;
    }

    /** The configuration, immutable. */
    public SortConfig build() {
      return new SortConfig(this);
    }
  }
}
