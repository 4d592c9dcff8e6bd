package dev.joule.cli;

import dev.joule.io.error.SortIOException;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.file.Path;

/**
 * The end of a sort whose reader went away ({@code joule sort big | head -1}), as GNU sort's.
 *
 * <p>GNU sort leaves SIGPIPE at its default, so its first write after the reader closed the pipe
 * kills it: no message, and the shell reports status 141 (128 + 13); a parent that waits for it
 * sees a death by SIGPIPE ({@code WIFSIGNALED}; Python's {@code returncode} is -13). The JVM
 * ignores SIGPIPE, so the write fails with EPIPE instead ("Broken pipe"). By then the sort has
 * closed everything it opened (its temp files are gone, its output temporary deleted); what is left
 * is to end the same way. {@link #end} sets SIGPIPE back to its default ({@code sun.misc.Signal},
 * which the JDK keeps for this kind of use in {@code jdk.unsupported}) and writes one byte to
 * standard output, which is still the broken pipe: the kernel then ends the process exactly as it
 * ends GNU sort. Where that cannot be done (the signal API is missing, the output was a named pipe
 * opened by {@code -o} and is closed now, or the byte was somehow accepted) the process exits with
 * status {@value #STATUS}, silently: the same status for a shell and {@code set -o pipefail},
 * though a parent that looks at how it ended sees an exit, not a signal.
 *
 * <p>GNU sort started with SIGPIPE ignored ({@code trap '' PIPE}, a service manager's
 * IgnoreSIGPIPE) gets EPIPE too, and reports it as any failed write: exit 2 with the message. The
 * launcher tells joule which it was ({@code -Djoule.sigpipe=ignored}, from its inherited SigIgn
 * mask), and {@link #endsSilently()} is then false.
 *
 * <p>Stateless.
 */
final class BrokenPipe {
  /** 128 + SIGPIPE (13): what a shell reports for GNU sort killed by SIGPIPE. */
  static final int STATUS = ExitCodes.SIGNAL_BASE + 13;

  /** The name under which the sort writes standard output (its errors name it so). */
  static final Path STDOUT = Path.of("/dev/stdout");

  private BrokenPipe() {}

  /**
   * Whether a broken pipe ends the process as SIGPIPE would (false when joule was started with
   * SIGPIPE ignored, as the launcher says: then it is an I/O error like any other, as for GNU).
   */
  static boolean endsSilently() {
    return !"ignored".equals(System.getProperty("joule.sigpipe"));
  }

  /** Whether {@code e} is a write to the output that failed because its reader is gone (EPIPE). */
  static boolean is(Throwable e) {
    return e instanceof SortIOException s
        && "write".equals(s.op())
        && "Broken pipe".equals(s.reason());
  }

  /**
   * Ends the process as SIGPIPE ends GNU sort when {@code failed} is a write to standard output and
   * {@code stdout} is the process's own; otherwise, or if it survives, returns {@link #STATUS} for
   * the caller to exit with. Call it only once everything is closed.
   */
  static int end(SortIOException failed, OutputStream stdout) {
    if (STDOUT.equals(failed.path()) && stdout instanceof FileOutputStream f && isFd1(f)) {
      if (defaultSigpipe()) {
        try {
          f.write('\n'); // the pipe is broken for good: this write is the signal, not output
          f.flush();
        } catch (IOException e) {
          // still alive: exit with the status below
        }
      }
    }
    return STATUS;
  }

  /** Whether {@code f} writes file descriptor 1 (and not a file a test passed). */
  private static boolean isFd1(FileOutputStream f) {
    try {
      return f.getFD() == FileDescriptor.out;
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * Sets SIGPIPE's disposition back to the default (terminate) through {@code sun.misc.Signal},
   * looked up by name so that the build needs no unsupported API: false if it cannot.
   */
  private static boolean defaultSigpipe() {
    try {
      Class<?> signal = Class.forName("sun.misc.Signal");
      Class<?> handler = Class.forName("sun.misc.SignalHandler");
      Field dfl = handler.getField("SIG_DFL");
      Object pipe = signal.getConstructor(String.class).newInstance("PIPE");
      Method handle = signal.getMethod("handle", signal, handler);
      handle.invoke(null, pipe, dfl.get(null));
      return true;
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      return false;
    }
  }
}
