/**
 * File-system plumbing shared by every I/O stage: typed errors that name the operation and the path
 * ({@link dev.joule.io.fs.SortIOException}), directory fsync, and the notice sink for one-line
 * warnings.
 *
 * <p>All code in {@code dev.joule.io} takes {@link java.nio.file.Path}s from any file system (never
 * {@code java.io.File} or the default file system), so tests can pass paths from the fault layer in
 * {@code dev.joule.io.testing}.
 */
package dev.joule.io.fs;
