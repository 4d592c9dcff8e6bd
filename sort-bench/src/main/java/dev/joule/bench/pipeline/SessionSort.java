package dev.joule.bench.pipeline;

import dev.joule.io.config.DataSize;
import dev.joule.io.config.SortConfig;
import dev.joule.io.pipeline.ExternalSorter;
import dev.joule.io.pipeline.RecordCursor;
import dev.joule.io.pipeline.RecordSession;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Locale;

/**
 * The same gensort records through either door of the engine, for issue 27's "the session at the
 * file sort's speed" ({@code scripts/session-vs-file.sh}): {@code file} is {@code
 * ExternalSorter.sort(IN, OUT)}; {@code session} reads IN in 4 MiB reads and adds them to a record
 * session, then writes the cursor's records to OUT in 4 MiB writes and forces it, as a platform
 * would that sorts what it reads and writes what it gets. {@code copy} is the session's caller
 * without the sort: the same reads and writes, one after the other on one thread, which no engine
 * behind the session can make faster.
 *
 * <pre>
 * java -cp sort-bench/target/benchmarks.jar dev.joule.bench.pipeline.SessionSort file|session|copy IN OUT MEMORY THREADS TMPDIR
 * </pre>
 *
 * Prints {@code mode=... seconds=...}: the time from the first read to the output forced (the
 * script takes the process's CPU time from GNU time).
 */
public final class SessionSort {
  private static final int IO = 4 << 20;

  private SessionSort() {}

  public static void main(String[] args) throws Exception {
    String mode = args[0];
    Path in = Path.of(args[1]);
    Path out = Path.of(args[2]);
    SortConfig c =
        SortConfig.builder()
            .memoryBudget(DataSize.parse(args[3]))
            .threads(Integer.parseInt(args[4]))
            .tempDirs(List.of(Path.of(args[5])))
            .build();
    long t0 = System.nanoTime();
    switch (mode) {
      case "file" -> ExternalSorter.sort(in, out, c);
      case "session" -> session(in, out, c);
      case "copy" -> copy(in, out);
      default -> throw new IllegalArgumentException("mode " + mode + ": file, session or copy");
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    System.out.printf(Locale.ROOT, "mode=%s seconds=%.3f%n", mode, seconds);
  }

  private static void copy(Path in, Path out) throws IOException {
    ByteBuffer buf = ByteBuffer.allocateDirect(IO);
    try (FileChannel ch = FileChannel.open(in, StandardOpenOption.READ);
        FileChannel o = openOutput(out)) {
      long size = ch.size();
      long done = 0;
      while (done < size) {
        buf.clear();
        int n = ch.read(buf, done);
        if (n < 0) {
          break;
        }
        done += n;
      }
      // the bytes written are the last buffer read, again and again: the floor counts calls and
      // bytes, not their order
      for (long left = done; left > 0; ) {
        buf.clear().limit((int) Math.min(IO, left));
        while (buf.hasRemaining()) {
          left -= o.write(buf);
        }
      }
      o.force(true);
    }
  }

  private static void session(Path in, Path out, SortConfig c) throws IOException {
    ByteBuffer buf = ByteBuffer.allocateDirect(IO);
    int rs = 100;
    try (RecordSession s = ExternalSorter.open(c)) {
      try (FileChannel ch = FileChannel.open(in, StandardOpenOption.READ)) {
        while (true) {
          buf.clear().limit(IO / rs * rs);
          while (buf.hasRemaining() && ch.read(buf) >= 0) {
            // fill whole transfers
          }
          buf.flip();
          if (!buf.hasRemaining()) {
            break;
          }
          s.add(buf);
        }
      }
      try (RecordCursor cur = s.finish();
          FileChannel o = openOutput(out)) {
        buf.clear();
        while (cur.next()) {
          ByteBuffer r = cur.record();
          if (buf.remaining() < r.remaining()) {
            buf.flip();
            while (buf.hasRemaining()) {
              o.write(buf);
            }
            buf.clear();
          }
          buf.put(r);
        }
        buf.flip();
        while (buf.hasRemaining()) {
          o.write(buf);
        }
        o.force(true);
      }
    }
  }

  private static FileChannel openOutput(Path out) throws IOException {
    return FileChannel.open(
        out,
        StandardOpenOption.CREATE,
        StandardOpenOption.TRUNCATE_EXISTING,
        StandardOpenOption.WRITE);
  }
}
