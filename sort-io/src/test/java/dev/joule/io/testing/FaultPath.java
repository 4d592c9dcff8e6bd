package dev.joule.io.testing;

import java.io.IOException;
import java.net.URI;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.ProviderMismatchException;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;

/** A path of a {@link FaultFileSystem}: wraps a path of the default file system. */
final class FaultPath implements Path {
  final FaultFileSystem fs;
  final Path delegate;

  FaultPath(FaultFileSystem fs, Path delegate) {
    this.fs = fs;
    this.delegate = delegate;
  }

  private Path wrap(Path p) {
    return p == null ? null : new FaultPath(fs, p);
  }

  static Path unwrap(Path p) {
    if (p instanceof FaultPath f) {
      return f.delegate;
    }
    throw new ProviderMismatchException("not a fault-layer path: " + p);
  }

  @Override
  public FaultFileSystem getFileSystem() {
    return fs;
  }

  @Override
  public boolean isAbsolute() {
    return delegate.isAbsolute();
  }

  @Override
  public Path getRoot() {
    return wrap(delegate.getRoot());
  }

  @Override
  public Path getFileName() {
    return wrap(delegate.getFileName());
  }

  @Override
  public Path getParent() {
    return wrap(delegate.getParent());
  }

  @Override
  public int getNameCount() {
    return delegate.getNameCount();
  }

  @Override
  public Path getName(int index) {
    return wrap(delegate.getName(index));
  }

  @Override
  public Path subpath(int b, int e) {
    return wrap(delegate.subpath(b, e));
  }

  @Override
  public boolean startsWith(Path other) {
    return other instanceof FaultPath && delegate.startsWith(unwrap(other));
  }

  @Override
  public boolean endsWith(Path other) {
    return other instanceof FaultPath && delegate.endsWith(unwrap(other));
  }

  @Override
  public Path normalize() {
    return wrap(delegate.normalize());
  }

  @Override
  public Path resolve(Path other) {
    return wrap(delegate.resolve(unwrap(other)));
  }

  @Override
  public Path resolve(String other) {
    return wrap(delegate.resolve(other));
  }

  @Override
  public Path relativize(Path other) {
    return wrap(delegate.relativize(unwrap(other)));
  }

  @Override
  public URI toUri() {
    return delegate.toUri();
  }

  @Override
  public Path toAbsolutePath() {
    return wrap(delegate.toAbsolutePath());
  }

  @Override
  public Path toRealPath(LinkOption... options) throws IOException {
    return wrap(delegate.toRealPath(options));
  }

  @Override
  public WatchKey register(
      WatchService watcher, WatchEvent.Kind<?>[] events, WatchEvent.Modifier... modifiers) {
    throw new UnsupportedOperationException();
  }

  @Override
  public int compareTo(Path other) {
    return delegate.compareTo(unwrap(other));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof FaultPath f && f.delegate.equals(delegate);
  }

  @Override
  public int hashCode() {
    return delegate.hashCode();
  }

  @Override
  public String toString() {
    return delegate.toString();
  }
}
