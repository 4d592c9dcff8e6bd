/**
 * Stage 1 of 6: reads the input into record arenas and indexes them. Input: the file to sort
 * ({@link dev.joule.io.input.InputFile}: opened once, checked to hold whole records, checked
 * unchanged after the last read). Output: filled {@code core.memory.RecordArena}s ({@link
 * dev.joule.io.input.InputStage} reads straight into their aligned windows) and their {@code
 * core.record.RecordIndex} with the input's valsort checksum ({@link
 * dev.joule.io.input.ArenaIndexer}, one parallel pass), sorted next by {@code core.radix}.
 *
 * <p>Layer 3 of 4 (stages).
 */
package dev.joule.io.input;
