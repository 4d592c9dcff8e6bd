/**
 * Stage 2 of 6: owns the off-heap memory that one run's records live in. Input: a memory budget
 * from the pipeline and bytes read by {@code io.input} straight into aligned windows. Output: a
 * filled {@link dev.joule.core.memory.RecordArena}, indexed by {@code core.record} and sorted by
 * {@code core.radix}.
 *
 * <p>Every off-heap byte here has exactly one owner (the {@code RecordArena}); everything else
 * borrows it through a non-closable {@link dev.joule.core.memory.ArenaView}.
 */
package dev.joule.core.memory;
