import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The least a JVM program can do to sort text lines as {@code LC_ALL=C sort} does: read the whole
 * input, sort an index of the lines by their bytes, write them out. No temp files, no checks, no
 * options. startup-vs-gnu.sh times it, cold, as the floor of a JVM's start-up on each input: what
 * any sort on a JVM pays before its own design matters (the JVM's start, its class loading, the
 * interpreter and the JIT compiling the hot loops).
 *
 * <pre>
 *   java -cp DIR MinSort IN OUT    a file to a file
 *   java -cp DIR MinSort           standard input to standard output
 * </pre>
 *
 * The input must end with a newline (gen-text.py's do).
 */
public final class MinSort {
  public static void main(String[] args) throws IOException {
    byte[] in = args.length == 2 ? Files.readAllBytes(Path.of(args[0])) : readAll(System.in);
    int lines = 0;
    for (byte b : in) {
      if (b == '\n') {
        lines++;
      }
    }
    int[] start = new int[lines + 1];
    for (int i = 0, k = 1; i < in.length; i++) {
      if (in[i] == '\n') {
        start[k++] = i + 1;
      }
    }
    Integer[] order = new Integer[lines];
    for (int i = 0; i < lines; i++) {
      order[i] = i;
    }
    // Arrays.compareUnsigned of the lines' bytes (without their newlines): C's collation
    Arrays.sort(
        order,
        (x, y) ->
            Arrays.compareUnsigned(
                in, start[x], start[x + 1] - 1, in, start[y], start[y + 1] - 1));
    byte[] out = new byte[in.length];
    int o = 0;
    for (int x : order) {
      int n = start[x + 1] - start[x];
      System.arraycopy(in, start[x], out, o, n);
      o += n;
    }
    if (args.length == 2) {
      Files.write(Path.of(args[1]), out);
    } else {
      OutputStream s = System.out;
      s.write(out);
      s.flush();
    }
  }

  private static byte[] readAll(InputStream s) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream(1 << 20);
    s.transferTo(b);
    return b.toByteArray();
  }
}
