package dev.joule.io.run;

import dev.joule.io.block.SortThreads;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One block through an external program, GNU sort's {@code --compress-program} protocol: {@code
 * PROG} reads the block on its standard input and writes it compressed on its standard output;
 * {@code PROG -d} does the reverse. The program is found as the shell would ({@code PATH} unless
 * the name holds a slash), inherits joule's environment, working directory and standard error, and
 * nothing else: the JDK closes every other descriptor in the child. A status other than 0, a start
 * that fails or a program that stops reading its input is a {@link Failure} naming it; the caller
 * adds the run and the block.
 *
 * <p>A process per block (docs/decisions/D35): the block, not the run, is the unit the reader
 * fetches, verifies and prefetches, so each block must be decodable alone. Its standard input is
 * fed by a thread of the sort ({@code joule-compress-N}, joined before the call returns) while the
 * calling thread reads its standard output, since a program may write before it has read
 * everything.
 *
 * <p>Memory: one 64 KiB heap buffer per call in flight and the JDK's pipe buffers. Thread-safe:
 * every call has its own process.
 */
final class ProgramCodec {
  /** Bytes copied per write to the program and per read from it. */
  private static final int CHUNK = 64 * 1024;

  private static final Pattern ERRNO = Pattern.compile("error=\\d+, (.+)$");

  private final String program;
  private final SortThreads threads;

  ProgramCodec(String program, SortThreads threads) {
    this.program = program;
    this.threads = threads;
  }

  /** The program's name as given. */
  String program() {
    return program;
  }

  /**
   * Runs {@code PROG} on {@code [0, srcLength)} of {@code src}; returns the length of its output,
   * written to {@code [0, capacity)} of {@code dst}, or -1 if the output is longer (the block is
   * then stored raw).
   */
  int compress(ByteBuffer src, int srcLength, ByteBuffer dst, int capacity) throws Failure {
    return run(false, src, srcLength, dst, 0, capacity);
  }

  /**
   * Runs {@code PROG -d} on {@code [0, srcLength)} of {@code src}; returns the length of its
   * output, written to {@code dst} from {@code at}.
   *
   * @throws Failure also if the output is longer than {@code capacity}
   */
  int decompress(ByteBuffer src, int srcLength, ByteBuffer dst, int at, int capacity)
      throws Failure {
    int n = run(true, src, srcLength, dst, at, capacity);
    if (n < 0) {
      throw new Failure(name(true) + " wrote more than the block's " + capacity + " bytes");
    }
    return n;
  }

  private int run(
      boolean decompress, ByteBuffer src, int srcLength, ByteBuffer dst, int at, int capacity)
      throws Failure {
    List<String> argv = decompress ? List.of(program, "-d") : List.of(program);
    Process p;
    try {
      p = new ProcessBuilder(argv).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    } catch (IOException e) {
      throw new Failure(
          "couldn't execute compress program "
              + quote(program)
              + (decompress ? " (with -d)" : "")
              + ": "
              + reason(e),
          e);
    }
    Feeder feeder = new Feeder(p.getOutputStream(), src, srcLength);
    Thread t;
    try {
      t = threads.newThread("compress", feeder);
      t.start();
    } catch (RejectedExecutionException e) {
      p.destroyForcibly();
      throw new Failure("no thread to feed " + name(decompress) + ": " + e.getMessage(), e);
    }
    try {
      int n = 0;
      boolean over = false;
      byte[] chunk = new byte[CHUNK];
      try (InputStream in = p.getInputStream()) {
        for (int r; (r = in.read(chunk)) >= 0; ) {
          if (!over && r <= capacity - n) {
            dst.put(at + n, chunk, 0, r);
            n += r;
          } else {
            over = true; // keep reading: the program must not block on a full pipe
          }
        }
      } catch (IOException e) {
        throw new Failure("reading the output of " + name(decompress) + ": " + reason(e), e);
      }
      int status = p.waitFor();
      t.join();
      if (status != 0) {
        throw new Failure(name(decompress) + " terminated abnormally: exit status " + status);
      }
      if (feeder.failure != null) {
        throw new Failure(
            name(decompress) + " did not read all of its input: " + reason(feeder.failure),
            feeder.failure);
      }
      return over ? -1 : n;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new Failure("interrupted while waiting for " + name(decompress), e);
    } finally {
      if (p.isAlive()) {
        p.destroyForcibly(); // a failure above: its feeder then ends on a broken pipe
      }
      SortThreads.joinUninterruptibly(List.of(t));
    }
  }

  /** {@code 'PROG'} or {@code 'PROG' -d}, as the messages name the program. */
  private String name(boolean decompress) {
    return quote(program) + (decompress ? " -d" : "");
  }

  /** {@code s} in single quotes, as GNU's messages quote a name; a quote inside becomes '\''. */
  static String quote(String s) {
    return "'" + s.replace("'", "'\\''") + "'";
  }

  /** The errno text of a failed start ("error=2, No such file or directory"), else the message. */
  private static String reason(IOException e) {
    String m = String.valueOf(e.getMessage());
    Matcher x = ERRNO.matcher(m);
    return x.find() ? x.group(1) : m;
  }

  /** Writes the block to the program's standard input and closes it. */
  private static final class Feeder implements Runnable {
    private final OutputStream out;
    private final ByteBuffer src;
    private final int length;
    volatile IOException failure;

    Feeder(OutputStream out, ByteBuffer src, int length) {
      this.out = out;
      this.src = src;
      this.length = length;
    }

    @Override
    public void run() {
      byte[] chunk = new byte[Math.min(CHUNK, Math.max(length, 1))];
      try (OutputStream o = out) {
        for (int done = 0; done < length; ) {
          int n = Math.min(chunk.length, length - done);
          src.get(done, chunk, 0, n);
          o.write(chunk, 0, n);
          done += n;
        }
      } catch (IOException e) {
        failure = e;
      }
    }
  }

  /** What the program did wrong, naming it; the caller adds the block and the run. */
  static final class Failure extends IOException {
    Failure(String message) {
      super(message);
    }

    Failure(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
