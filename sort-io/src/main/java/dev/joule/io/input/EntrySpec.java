package dev.joule.io.input;

import dev.joule.core.index.EntryLayout;
import dev.joule.core.index.TieBreaker;
import dev.joule.io.config.SortConfig;

/**
 * How one sort turns its records into entries (a record with its normalized key, {@link
 * EntryLayout}) and orders them: the layout, and the {@link TieBreaker} for records whose keys are
 * equal (null when equal keys keep input order). Decided once from the {@link SortConfig}, before
 * any data is read, and shared by every stage that reads or writes entries.
 *
 * <p>Immutable and thread-safe.
 */
public final class EntrySpec {
  private final EntryLayout layout;
  private final TieBreaker tie;

  private EntrySpec(EntryLayout layout, TieBreaker tie) {
    this.layout = layout;
    this.tie = tie;
  }

  /** The entries of {@code config}'s records and key. */
  public static EntrySpec of(SortConfig config) {
    return new EntrySpec(EntryLayout.of(config.format()), null);
  }

  /** The entry layout. */
  public EntryLayout layout() {
    return layout;
  }

  /** The tie breaker of equal keys, or null. */
  public TieBreaker tie() {
    return tie;
  }
}
