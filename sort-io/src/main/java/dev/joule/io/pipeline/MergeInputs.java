package dev.joule.io.pipeline;

import dev.joule.io.block.BlockFile;
import dev.joule.io.run.RunDescriptor;
import dev.joule.io.run.RunReader;
import java.io.IOException;
import java.util.List;

/**
 * The opened run files of one merge: a {@link BlockFile} and a verified {@link RunReader} per run,
 * in run order. Closing closes every file (the first error thrown, the rest suppressed). Owned by
 * the merge's thread; the readers are shared read-only with its prefetch threads.
 */
final class MergeInputs implements AutoCloseable {
  final RunDescriptor[] descriptors;
  final BlockFile[] files;
  final RunReader[] readers;

  MergeInputs(List<RunDescriptor> runs, SortConfig c) throws IOException {
    int k = runs.size();
    descriptors = new RunDescriptor[k];
    files = new BlockFile[k];
    readers = new RunReader[k];
    try {
      for (int i = 0; i < k; i++) {
        files[i] = BlockFile.openRead(runs.get(i).path(), c.directIo(), c.notices());
        readers[i] = RunReader.open(files[i], c.format());
        descriptors[i] = readers[i].descriptor();
      }
    } catch (IOException | RuntimeException e) {
      closeAfter(e);
      throw e;
    }
  }

  void closeAfter(Throwable e) {
    try {
      close();
    } catch (IOException x) {
      e.addSuppressed(x);
    }
  }

  @Override
  public void close() throws IOException {
    IOException first = null;
    for (BlockFile f : files) {
      try {
        if (f != null) {
          f.close();
        }
      } catch (IOException e) {
        if (first == null) {
          first = e;
        } else {
          first.addSuppressed(e);
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }
}
