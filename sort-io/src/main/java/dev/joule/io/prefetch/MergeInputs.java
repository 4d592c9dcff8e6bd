package dev.joule.io.prefetch;

import dev.joule.core.index.EntryLayout;
import dev.joule.io.block.BlockFile;
import dev.joule.io.config.DirectIoPolicy;
import dev.joule.io.config.NoticeSink;
import dev.joule.io.fs.Failures;
import dev.joule.io.run.RunDescriptor;
import dev.joule.io.run.RunReader;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;

/**
 * The opened run files of one merge: a {@link BlockFile} and a verified {@link RunReader} per run,
 * in run order (header and footer are checked when opened). Several {@link MergeSource}s may read
 * disjoint ranges of the same inputs (the parts of a parallel merge). Closing closes every file
 * (the first error is thrown, the rest suppressed).
 *
 * <p>Owned by the merge's driving thread; the readers are shared read-only with prefetch threads.
 */
public final class MergeInputs implements AutoCloseable {
  final RunDescriptor[] descriptors;
  final BlockFile[] files;
  final RunReader[] readers;

  /** Opens and verifies {@code runs}, whose entries must be of {@code layout}. */
  public MergeInputs(
      List<RunDescriptor> runs, EntryLayout layout, DirectIoPolicy direct, NoticeSink notices)
      throws IOException {
    int k = runs.size();
    descriptors = new RunDescriptor[k];
    files = new BlockFile[k];
    readers = new RunReader[k];
    try {
      for (int i = 0; i < k; i++) {
        files[i] = BlockFile.openRead(runs.get(i).parts(), direct, notices);
        readers[i] = RunReader.open(files[i], layout, runs.get(i).compression());
        descriptors[i] = readers[i].descriptor();
      }
    } catch (IOException | RuntimeException e) {
      Failures.closeAllAfter(e, Arrays.asList(files));
      throw e;
    }
  }

  /** Number of runs. */
  public int size() {
    return descriptors.length;
  }

  /** The verified descriptor of run {@code i}. */
  public RunDescriptor descriptor(int i) {
    return descriptors[i];
  }

  /** The open file of run {@code i} (positional reads only). */
  public BlockFile file(int i) {
    return files[i];
  }

  /** Records in all runs. */
  public long records() {
    long n = 0;
    for (RunDescriptor d : descriptors) {
      n += d.recordCount();
    }
    return n;
  }

  /** Closes every file. */
  @Override
  public void close() throws IOException {
    Failures.closeAll(Arrays.asList(files));
  }
}
