package dev.joule.spark.input;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.ChecksumFileSystem;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The Hadoop file system of a path, without the client-side checksum layer of the local file
 * system: records and parts are plain files (no {@code .crc} side files), as {@code joule sort}
 * writes them, and the engine and valsort summaries check the data themselves. Stateless.
 */
public final class HadoopFiles {
  private HadoopFiles() {}

  /** The file system of {@code path} (the cached instance; never close it). */
  public static FileSystem of(Path path, Configuration conf) throws IOException {
    FileSystem fs = path.getFileSystem(conf);
    if (fs instanceof ChecksumFileSystem c) {
      return c.getRawFileSystem();
    }
    return fs;
  }
}
