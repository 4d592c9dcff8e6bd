package dev.joule.spark.output;

import dev.joule.spark.JobIOException;
import dev.joule.spark.input.HadoopFiles;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The output directory's commit protocol: nothing appears under the output's name until every part
 * and summary is complete and validated, and then everything appears at once.
 *
 * <ol>
 *   <li>{@link #create}: refuses an existing output (unless overwriting) and a missing parent, then
 *       makes a hidden staging directory beside the output, {@code .NAME.joule-staging-UUID}, with
 *       an {@code _attempts} directory in it, and registers it for deletion should the driver's JVM
 *       exit first.
 *   <li>Reduce tasks write {@code _attempts/part-NNNNN.attempt-ID} (and {@code .sum}); a retried or
 *       speculative task writes under its own attempt id, so attempts never collide.
 *   <li>{@link #commit}: renames the one reported attempt of each partition to {@code part-NNNNN},
 *       removes {@code _attempts} (and with it every losing or failed attempt), writes {@code
 *       _SUCCESS}, and renames the staging directory to the output name: a single rename publishes
 *       the complete directory. With overwrite, the old output is first renamed aside and removed
 *       only after the new one is in place (and renamed back if that fails).
 *   <li>{@link #abort}: removes the staging directory; the output name is untouched.
 * </ol>
 *
 * <p>The directory must be on a file system that the driver and every executor reach under the same
 * path (HDFS, a shared mount, or the local disk in local mode), with an atomic directory rename
 * (HDFS and POSIX file systems; object stores need a committer of their own). Driver-side only; not
 * thread-safe.
 */
public final class StagedOutput {
  /** Name of the marker written last. */
  public static final String SUCCESS = "_SUCCESS";

  /** Directory of the tasks' attempt files inside the staging directory. */
  public static final String ATTEMPTS = "_attempts";

  /** How long {@link #abort} keeps removing the staging directory while cancelled tasks end. */
  public static final long ABORT_WAIT_MILLIS = 10_000;

  /** Most partitions: part names have five digits, so that name order is partition order. */
  public static final int MAX_PARTITIONS = 100_000;

  private final FileSystem fs;
  private final Path output;
  private final Path staging;
  private final Path attempts;
  private final boolean overwrite;
  private boolean done;

  private StagedOutput(FileSystem fs, Path output, Path staging, boolean overwrite) {
    this.fs = fs;
    this.output = output;
    this.staging = staging;
    this.attempts = new Path(staging, ATTEMPTS);
    this.overwrite = overwrite;
  }

  /** The part file name of partition {@code p}: {@code part-NNNNN}. */
  public static String partName(int p) {
    return String.format(Locale.ROOT, "part-%05d", p);
  }

  /** Checks that {@code output} may be written; changes nothing. */
  public static void check(String output, boolean overwrite, Configuration conf)
      throws JobIOException {
    Path out = new Path(output);
    try {
      FileSystem fs = HadoopFiles.of(out, conf);
      Path q = fs.makeQualified(out);
      if (fs.exists(q) && !overwrite) {
        throw new JobIOException(
            "create", q.toString(), "File exists (give --overwrite to replace it)");
      }
      Path parent = q.getParent();
      if (parent == null) {
        throw new JobIOException("create", q.toString(), "the output cannot be a root directory");
      }
      FileStatus ps;
      try {
        ps = fs.getFileStatus(parent);
      } catch (FileNotFoundException e) {
        throw new JobIOException("create", q.toString(), "No such file or directory", e);
      }
      if (!ps.isDirectory()) {
        throw new JobIOException("create", q.toString(), "Not a directory: " + parent);
      }
    } catch (IOException e) {
      throw JobIOException.wrap("create", output, e);
    }
  }

  /** Checks {@code output} and creates its staging directory. */
  public static StagedOutput create(String output, boolean overwrite, Configuration conf)
      throws JobIOException {
    check(output, overwrite, conf);
    Path out = new Path(output);
    Path staging = null;
    try {
      FileSystem fs = HadoopFiles.of(out, conf);
      Path q = fs.makeQualified(out);
      staging = new Path(q.getParent(), "." + q.getName() + ".joule-staging-" + UUID.randomUUID());
      StagedOutput s = new StagedOutput(fs, q, staging, overwrite);
      if (!fs.mkdirs(s.attempts)) {
        throw new JobIOException("mkdir", s.attempts.toString(), "the file system refused");
      }
      fs.deleteOnExit(staging);
      return s;
    } catch (IOException e) {
      throw JobIOException.wrap("mkdir", staging == null ? output : staging, e);
    }
  }

  /** The qualified output directory. */
  public String output() {
    return output.toString();
  }

  /** The staging directory (hidden, beside the output). */
  public String staging() {
    return staging.toString();
  }

  /** Where reduce tasks write their attempt files. */
  public String attemptDir() {
    return attempts.toString();
  }

  /**
   * Publishes the parts: {@code parts} holds one validated result per partition, in partition
   * order.
   *
   * @throws JobIOException naming the rename or write that failed; the staging directory is then
   *     still there for {@link #abort}
   */
  public void commit(List<PartResult> parts) throws JobIOException {
    for (PartResult r : parts) {
      String name = partName(r.partition());
      rename(new Path(r.partFile()), new Path(staging, name));
      if (r.summaryFile() != null) {
        rename(new Path(r.summaryFile()), new Path(staging, name + ".sum"));
      }
    }
    try {
      fs.delete(attempts, true);
      fs.create(new Path(staging, SUCCESS), false).close();
    } catch (IOException e) {
      throw JobIOException.wrap("write", new Path(staging, SUCCESS), e);
    }
    publish();
    done = true;
    fs.cancelDeleteOnExit(staging);
  }

  private void publish() throws JobIOException {
    Path aside = null;
    try {
      if (fs.exists(output)) {
        if (!overwrite) {
          // created by someone else while the job ran: a rename would move the staging directory
          // into it
          throw new JobIOException(
              "rename", output.toString(), "File exists (it appeared while the job ran)");
        }
        aside = new Path(staging.getParent(), staging.getName() + "-previous");
        rename(output, aside);
      }
      rename(staging, output);
    } catch (JobIOException e) {
      if (aside != null) {
        try {
          fs.rename(aside, output);
        } catch (IOException suppressed) {
          e.addSuppressed(suppressed);
        }
      }
      throw e;
    } catch (IOException e) {
      throw JobIOException.wrap("rename", output, e);
    }
    if (aside != null) {
      try {
        fs.delete(aside, true);
      } catch (IOException e) {
        // the new output is in place; the old one stays beside it under its hidden name
      }
    }
  }

  private void rename(Path from, Path to) throws JobIOException {
    try {
      if (!fs.rename(from, to)) {
        throw new JobIOException(
            "rename", from.toString(), "could not rename to " + to + " (the file system refused)");
      }
    } catch (IOException e) {
      throw JobIOException.wrap("rename", from, e);
    }
  }

  /**
   * Removes the staging directory (after a failure); errors are added to {@code failure}. When a
   * job fails, Spark cancels its other running tasks without waiting for them, so a task may still
   * be writing its attempt file while the directory is removed: the removal is repeated until the
   * directory is gone, for at most {@value #ABORT_WAIT_MILLIS} ms. Tasks create their files
   * non-recursively, so once the directory is gone no task can bring it back.
   */
  public void abort(Throwable failure) {
    if (done) {
      return;
    }
    done = true;
    long deadline = System.currentTimeMillis() + ABORT_WAIT_MILLIS;
    try {
      while (true) {
        fs.delete(staging, true);
        if (!fs.exists(staging)) {
          break;
        }
        if (System.currentTimeMillis() > deadline) {
          failure.addSuppressed(
              new JobIOException(
                  "delete", staging.toString(), "still written by tasks being cancelled"));
          return;
        }
        Thread.sleep(50);
      }
      fs.cancelDeleteOnExit(staging);
    } catch (IOException | RuntimeException e) {
      failure.addSuppressed(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      failure.addSuppressed(e);
    }
  }
}
