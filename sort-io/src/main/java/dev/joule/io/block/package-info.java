/**
 * Block I/O, the first and last stage of the pipeline: positional reads and writes of whole blocks
 * between {@link java.nio.channels.FileChannel}s and 4096-aligned direct buffers, with O_DIRECT
 * when the file system allows it, read-ahead and write-behind on named daemon threads, and the one
 * {@link dev.joule.io.block.BlockPool} that allocates direct memory in sort-io.
 */
package dev.joule.io.block;
