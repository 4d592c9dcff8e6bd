/**
 * Block I/O under every stage: positional reads and writes of whole blocks between {@link
 * java.nio.channels.FileChannel}s and 4096-aligned direct buffers, with O_DIRECT when the file
 * system allows it, read-ahead and write-behind on named daemon threads, and {@link
 * dev.joule.io.block.BlockPool}, the one class of sort-io that allocates direct memory.
 *
 * <p>Layer 2 of 4 (plumbing): depends on {@code io.config}, {@code io.error} and {@code
 * core.memory}.
 */
package dev.joule.io.block;
