package dev.joule.spark.input;

import dev.joule.spark.JobIOException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Stage 1 of 5 on the driver: the input files, checked and cut into splits of whole records. Input:
 * the paths given (files, or directories whose visible files are taken in name order). Output:
 * {@link InputSplit}s with global ordinals, read by the sampling job and the map tasks.
 *
 * <p>Every check happens here, before Spark runs anything: a missing input, a directory without
 * files, or a file whose size is not a whole number of records fails with a {@link JobIOException}
 * that names the file. Immutable.
 */
public final class InputPlan implements Serializable {
  private static final long serialVersionUID = 1L;

  /** Default bytes per split: the size of an HDFS block, a good unit of work for one task. */
  public static final long DEFAULT_SPLIT_BYTES = 128L << 20;

  /** Smallest split chosen to spread a small input over the cores (Spark's own open cost). */
  public static final long MIN_SPREAD_BYTES = 4L << 20;

  private final List<String> files;
  private final List<InputSplit> splits;
  private final long records;
  private final int recordSize;

  private InputPlan(List<String> files, List<InputSplit> splits, long records, int recordSize) {
    this.files = List.copyOf(files);
    this.splits = List.copyOf(splits);
    this.records = records;
    this.recordSize = recordSize;
  }

  /**
   * Plans {@code inputs}, in the order given.
   *
   * @param splitBytes most bytes per split (at least one record)
   * @param parallelism task slots of the cluster: splits shrink (down to {@link #MIN_SPREAD_BYTES})
   *     so that the map tasks come in whole waves over the slots
   * @throws JobIOException naming the first input that is missing, empty of files, or not a whole
   *     number of records
   */
  public static InputPlan of(
      List<String> inputs, Configuration conf, int recordSize, long splitBytes, int parallelism)
      throws JobIOException {
    if (inputs.isEmpty()) {
      throw new IllegalArgumentException("no input given");
    }
    List<FileStatus> all = new ArrayList<>();
    long total = 0;
    for (String input : inputs) {
      for (FileStatus f : filesOf(input, conf)) {
        all.add(f);
        total += f.getLen();
      }
    }
    long perSplit = Math.max(1, splitBytes(total, splitBytes, parallelism) / recordSize);
    List<String> files = new ArrayList<>();
    List<InputSplit> splits = new ArrayList<>();
    long ordinal = 0;
    for (FileStatus f : all) {
      String path = f.getPath().toString();
      long size = f.getLen();
      if (size % recordSize != 0) {
        throw new JobIOException(
            "read",
            path,
            "input size "
                + size
                + " is not a multiple of record size "
                + recordSize
                + ": "
                + size % recordSize
                + " trailing bytes at offset "
                + (size - size % recordSize));
      }
      files.add(path);
      long n = size / recordSize;
      for (long first = 0; first < n; first += perSplit) {
        long count = Math.min(perSplit, n - first);
        splits.add(new InputSplit(splits.size(), path, first, count, ordinal + first));
      }
      ordinal += n;
    }
    return new InputPlan(files, splits, ordinal, recordSize);
  }

  /**
   * Bytes per split: at most {@code splitBytes}, and as many splits as make whole waves of {@code
   * parallelism} tasks (three 128 MiB splits on two cores would leave one core idle for a third of
   * the map stage; four of 75 MiB do not), but not below {@link #MIN_SPREAD_BYTES}.
   */
  static long splitBytes(long total, long splitBytes, int parallelism) {
    long slots = Math.max(1, parallelism);
    long count = Math.max(1, (total + splitBytes - 1) / splitBytes);
    count = (count + slots - 1) / slots * slots;
    long size = (total + count - 1) / count;
    return Math.min(splitBytes, Math.max(MIN_SPREAD_BYTES, size));
  }

  private static List<FileStatus> filesOf(String input, Configuration conf) throws JobIOException {
    Path p = new Path(input);
    try {
      FileSystem fs = HadoopFiles.of(p, conf);
      FileStatus st = fs.getFileStatus(p);
      Path q = fs.makeQualified(p);
      if (!st.isDirectory()) {
        return List.of(fs.getFileStatus(q));
      }
      FileStatus[] listed =
          fs.listStatus(q, x -> !x.getName().startsWith("_") && !x.getName().startsWith("."));
      Arrays.sort(listed, Comparator.comparing(s -> s.getPath().getName()));
      List<FileStatus> out = new ArrayList<>();
      for (FileStatus s : listed) {
        if (s.isFile()) {
          out.add(s);
        }
      }
      if (out.isEmpty()) {
        throw new JobIOException("read", q.toString(), "directory holds no input files");
      }
      return out;
    } catch (FileNotFoundException e) {
      throw new JobIOException("open", input, "No such file or directory", e);
    } catch (IOException e) {
      throw JobIOException.wrap("open", input, e);
    }
  }

  /** The input files, qualified, in ordinal order. */
  public List<String> files() {
    return files;
  }

  /** The splits, in ordinal order. */
  public List<InputSplit> splits() {
    return splits;
  }

  /** Records in all inputs. */
  public long records() {
    return records;
  }

  public int recordSize() {
    return recordSize;
  }

  /** Bytes in all inputs. */
  public long bytes() {
    return records * recordSize;
  }
}
