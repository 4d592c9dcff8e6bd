/**
 * Plumbing shared by every stage: {@link dev.joule.io.fs.Failures} (the one translation of what
 * went wrong into a typed exception, the cancellation point, and closing many resources without
 * losing the first error) and {@link dev.joule.io.fs.Durability} (directory fsync after a create or
 * rename).
 *
 * <p>Layer 2 of 4 (plumbing). All code in {@code dev.joule.io} takes {@link java.nio.file.Path}s of
 * any file system (never {@code java.io.File}), so tests can pass paths of the fault layer in
 * {@code dev.joule.io.testing}.
 */
package dev.joule.io.fs;
