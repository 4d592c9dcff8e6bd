/**
 * What is being sorted (API): the shape of the records ({@link dev.joule.core.record.RecordFormat},
 * {@link dev.joule.core.record.FixedLengthFormat}) and where their key sits ({@link
 * dev.joule.core.record.KeySpec}). Immutable value types shared by every stage, the embedding API
 * and the command line.
 */
package dev.joule.core.record;
