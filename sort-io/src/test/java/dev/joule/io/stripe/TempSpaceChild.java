package dev.joule.io.stripe;

import dev.joule.io.block.BlockFile;
import dev.joule.io.config.DirectIoPolicy;
import dev.joule.io.config.NoticeSink;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

/**
 * A child JVM for {@link TempSpaceTest}: opens temp space on {@code args[0]}, creates one file,
 * prints the modes of the private dir and the file, then either exits normally ({@code exit}) or
 * prints "ready" and waits to be killed ({@code wait}).
 */
public final class TempSpaceChild {
  private TempSpaceChild() {}

  public static void main(String[] args) throws Exception {
    TempSpace space =
        TempSpace.open(List.of(Path.of(args[0])), new RoundRobinStripes(), NoticeSink.IGNORE);
    try (BlockFile f = space.createFile("run", 1, DirectIoPolicy.AUTO)) {
      Path dir = space.stripes().get(0).privateDir();
      System.out.println(
          PosixFilePermissions.toString(Files.getPosixFilePermissions(dir))
              + " "
              + PosixFilePermissions.toString(Files.getPosixFilePermissions(f.path())));
    }
    if (args[1].equals("wait")) {
      System.out.println("ready");
      System.out.flush();
      Thread.sleep(60_000);
    }
    System.exit(0); // without close(): the shutdown hook must clean up
  }
}
