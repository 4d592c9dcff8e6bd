/**
 * The in-JVM fault layer for tests (docs/reliability.md): a seeded {@link
 * java.nio.file.spi.FileSystemProvider} wrapper over the default file system that injects
 * IOExceptions per operation kind, short reads and writes, disk-full after N bytes, fsync failures
 * and DIRECT refusal, with a call log and an open-handle leak tracker. Entry point: {@link
 * dev.joule.io.testing.FaultFileSystemProvider#create(long)}, then {@code wrap(realPath)}.
 */
package dev.joule.io.testing;
