package dev.joule.io.testing;

import java.nio.file.FileStore;
import java.nio.file.FileSystem;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.WatchService;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The {@link FileSystem} of the fault layer: the default file system seen through {@link
 * FaultFileSystemProvider}.
 */
final class FaultFileSystem extends FileSystem {
  private final FaultFileSystemProvider provider;
  private final FileSystem delegate;

  FaultFileSystem(FaultFileSystemProvider provider, FileSystem delegate) {
    this.provider = provider;
    this.delegate = delegate;
  }

  FaultPath wrap(Path p) {
    return new FaultPath(this, p);
  }

  @Override
  public FaultFileSystemProvider provider() {
    return provider;
  }

  @Override
  public void close() {
    throw new UnsupportedOperationException();
  }

  @Override
  public boolean isOpen() {
    return true;
  }

  @Override
  public boolean isReadOnly() {
    return delegate.isReadOnly();
  }

  @Override
  public String getSeparator() {
    return delegate.getSeparator();
  }

  @Override
  public Iterable<Path> getRootDirectories() {
    List<Path> roots = new ArrayList<>();
    delegate.getRootDirectories().forEach(r -> roots.add(wrap(r)));
    return roots;
  }

  @Override
  public Iterable<FileStore> getFileStores() {
    return delegate.getFileStores();
  }

  @Override
  public Set<String> supportedFileAttributeViews() {
    return delegate.supportedFileAttributeViews();
  }

  @Override
  public Path getPath(String first, String... more) {
    return wrap(delegate.getPath(first, more));
  }

  @Override
  public PathMatcher getPathMatcher(String syntaxAndPattern) {
    PathMatcher m = delegate.getPathMatcher(syntaxAndPattern);
    return p -> m.matches(FaultPath.unwrap(p));
  }

  @Override
  public UserPrincipalLookupService getUserPrincipalLookupService() {
    return delegate.getUserPrincipalLookupService();
  }

  @Override
  public WatchService newWatchService() {
    throw new UnsupportedOperationException();
  }
}
