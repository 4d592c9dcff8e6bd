/**
 * Stage 4 of 6: writes sorted runs. Input: a sorted index over an arena (run formation, a session's
 * spill) or merged batches (an intermediate merge). Output: run files on the stripes of {@code
 * io.stripe}, read back by {@code io.prefetch}. {@link dev.joule.io.run.RunSpill} is the one way a
 * run is written; {@link dev.joule.io.run.RunWriter}, {@link dev.joule.io.run.RunReader} and {@link
 * dev.joule.io.run.RunDescriptor} (per-block first-key prefixes, which the prefetcher schedules
 * reads from) implement the versioned, checksummed format below ({@code docs/run-format.md}).
 *
 * <p>Layer 3 of 4 (stages).
 *
 * <h2>Format v1</h2>
 *
 * All multi-byte fields are big-endian; every region is a multiple of 4096 bytes, so a run file can
 * be written and read with O_DIRECT throughout.
 *
 * <pre>
 * offset 0        header, 4096 bytes
 *                   0  magic "JOULERUN" (8)      8  version = 1 (int)     12 header size = 4096 (int)
 *                  16  record size (int)        20  key offset (int)     24 key length (int)
 *                  28  block size B (int)       32  records per block R (int)
 *                  36  zero padding ... 4092  CRC32C of bytes [0, 4092) (int)
 * 4096 + k*B      data block k (k = 0 .. n-1): B bytes, the last one L bytes
 *                   0  R records (fewer in the last block), contiguous   ... zero padding
 *                 len-8  record count of this block (int)   len-4  CRC32C of bytes [0, len-4) (int)
 * 4096+(n-1)B+L   footer region, F bytes (a multiple of 4096)
 *                   0  magic "JRUNFOOT" (8)     8  record count (long)
 *                  16  valsort checksum hi (long)   24  lo (long)
 *                  32  block count n (int)      36  last block length L (int)
 *                  40  first-key prefix of every block (n longs, {@link dev.joule.core.index.KeyPrefix})
 *                   ... zero padding
 *                 F-16  trailer: footer offset (long)   F-8  F (int)   F-4  CRC32C of [0, F-4) (int)
 * </pre>
 *
 * A full block holds R = floor((B - 8) / recordSize) records; the last block holds the rest and is
 * L = roundUp(count * recordSize + 8, 4096) bytes long (B when it is full). Every byte of the file
 * is covered by a CRC.
 */
package dev.joule.io.run;
