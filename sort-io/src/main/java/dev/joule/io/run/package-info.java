/**
 * Stage 4 of 6: writes sorted runs. Input: a sorted index over an arena (run formation, a session's
 * spill) or merged batches (an intermediate merge). Output: run files on the stripes of {@code
 * io.stripe}, read back by {@code io.prefetch}. {@link dev.joule.io.run.RunSpill} is the one way a
 * run is written; {@link dev.joule.io.run.RunWriter}, {@link dev.joule.io.run.RunReader} and {@link
 * dev.joule.io.run.RunDescriptor} (per-block first keys, up to 64 bytes, which the prefetcher
 * schedules reads from) implement the versioned, checksummed format below ({@code
 * docs/run-format.md}).
 *
 * <p>Layer 3 of 4 (stages).
 *
 * <h2>Format v3</h2>
 *
 * All multi-byte fields are big-endian; every region is a multiple of 4096 bytes, so a run file can
 * be written and read with O_DIRECT throughout. The run holds <em>entries</em> (records with their
 * normalized keys, {@code core.index.EntryLayout}); full byte layout in {@code docs/run-format.md}.
 *
 * <pre>
 * offset 0        header, 4096 bytes
 *                   0  magic "JOULERUN" (8)   8  version = 3 (int)   12  header size = 4096 (int)
 *                  16  key place (int: 0 range, 1 whole record, 2 derived)
 *                  20  record size (int, 0 = variable)   24  key offset (int)
 *                  28  key length (int, 0 = variable)    32  block size B (int)
 *                  36  block codec (int: 0 none, 1 LZ4, 2 zstd)
 *                  ... zero padding ... 4092  CRC32C of bytes [0, 4092) (int)
 * 4096            data blocks back to back, block k stored in S(k) bytes (the footer's row)
 *                 raw (S = B, the last one L):
 *                   0  whole entries, contiguous (or one piece of an entry larger than B - 12)
 *                   ... zero padding
 *                 S-12  used bytes (int)   S-8  entries starting here (int)
 *                 S-4   CRC32C of bytes [0, S-4) (int)
 *                 compressed (S &lt; its raw length, a multiple of 4096):
 *                   0  c bytes: the raw block's used bytes, compressed by the header's codec
 *                   ... zero padding
 *                 S-16  c (int)   S-12  used bytes (int)   S-8  entries starting here (int)
 *                 S-4   CRC32C of the stored bytes [0, S-4) (int)
 * footer          F bytes (a multiple of 4096)
 *                   0  magic "JRUNFOOT" (8)    8  entry count (long)
 *                  16  valsort checksum of the records, hi (long)   24  lo (long)
 *                  32  block count n (int)     36  last block length L (int)
 *                  40  page count P (int, 0 for fixed-size entries)   44  zero (int)
 *                  48  bytes of all records (long)
 *                  56  per block (76 bytes): entries starting (int), first key length (int),
 *                      stored length S (int), first 64 bytes of the first key (zero-padded)
 *                      per 4096-byte page of the uncompressed data (16 bytes): index of the first entry starting in
 *                      it, or of the next one (int); its offset in the page, or -1 (int); the
 *                      record bytes of the entries before that one (long)
 *                   ... zero padding
 *                 F-16  footer offset (long)   F-8  F (int)   F-4  CRC32C of [0, F-4) (int)
 * </pre>
 *
 * An entry never straddles two blocks unless it is larger than a block's payload (B - 12): then it
 * starts a block and continues at the start of the following blocks, which start no entry, and the
 * block after its last piece starts the next entry. Every byte of the file is covered by a CRC.
 */
package dev.joule.io.run;
