package dev.joule.io.error;

import java.nio.file.Path;

/**
 * The compress program of a sort ({@code --compress-program=PROG}) failed on a block of a run: it
 * could not be executed, it exited with a status other than 0, it did not read the whole block, or
 * {@code PROG -d} did not give back the block's bytes. The message leads with GNU sort's words
 * ({@code couldn't execute compress program 'PROG'}, {@code 'PROG' terminated abnormally}), says
 * whether {@code -d} was given (GNU's {@code [-d]} leaves that open), the cause, and ends with the
 * block and the run file: {@code 'gzip' -d terminated abnormally: exit status 1 (decompressing
 * block 3 of /tmp/joule-x/run-000002)}.
 *
 * <p>A {@link SortIOException}: the run itself is not known to be damaged (its CRC32C covers the
 * bytes the program wrote), so the exit status is I/O's. Immutable.
 */
public final class CompressProgramException extends SortIOException {
  /**
   * {@code failure} (what the program did, naming it) while {@code op} (for example {@code
   * "decompressing block 3 of"}) on the run file {@code run}.
   */
  public CompressProgramException(String failure, String op, Path run, Throwable cause) {
    super(failure + " (" + op + " " + run + ")", op, run, failure, cause);
  }
}
