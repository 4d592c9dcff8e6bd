package dev.joule.core.gensort;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/** Loads the reference tools' vector files from the test classpath ({@code /vectors/}). */
public final class Vectors {
  private Vectors() {}

  /** The bytes of {@code vectors/name}. */
  public static byte[] load(String name) {
    try (InputStream in = Vectors.class.getResourceAsStream("/vectors/" + name)) {
      if (in == null) {
        throw new IllegalStateException("missing test resource /vectors/" + name);
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
