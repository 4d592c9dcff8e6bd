package dev.joule.io.pipeline;

import dev.joule.core.index.EntryLayout;
import dev.joule.io.hooks.OutputFault;
import dev.joule.io.output.OutputValidator;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * What a session's sorted entries pass on their way out ({@link SessionCursor}), in order: a test's
 * dropped entry ({@link OutputFault} of kind {@code DROP}, to show that the check catches it),
 * unique mode's drop of an entry whose key equals the previous one, and with validation the {@link
 * OutputValidator} (one CRC-32C, a copy and a compare of the key per entry).
 *
 * <p>Runs on the thread that produces the entries: the cursor's, or the merge running ahead of it
 * ({@link MergeAhead}). Not thread-safe; its validator is read by the cursor only after the last
 * entry passed (a queue hand-off in between).
 */
final class EntryCheck {
  private final EntryLayout layout;
  private final boolean pairs;
  private final boolean unique;
  private final OutputValidator validator; // null without validation (unless unique needs it)
  private final OutputFault fault; // a test's DROP, or null
  private long seen; // entries passed or dropped, for the fault
  private byte[] previousKey = new byte[64]; // unique mode without validation
  private int previousLength = -1;
  private ByteBuffer[] sources = new ByteBuffer[16];
  private ByteBuffer[] views = new ByteBuffer[16];

  EntryCheck(
      EntryLayout layout,
      boolean pairs,
      boolean unique,
      OutputValidator validator,
      OutputFault fault) {
    this.layout = layout;
    this.pairs = pairs;
    this.unique = unique;
    this.validator = validator;
    this.fault = fault;
  }

  /**
   * Whether the entry at {@code at} of {@code b} (from source {@code source}: a slab, a run of the
   * merge, a block) goes out; checks it if so, accounts for it if unique mode drops it.
   */
  boolean admit(ByteBuffer b, int at, int source) {
    if (fault != null && seen++ == fault.at()) {
      return false; // the test's dropped entry: the check must miss it
    }
    if (unique && sameKeyAsPrevious(b, at)) {
      if (validator != null) {
        validator.dropEntry(b, at);
      }
      return false;
    }
    if (validator != null) {
      int rp = layout.recordStart(b, at);
      int from = pairs ? layout.keyStart(at) : rp;
      ByteBuffer v = view(source, b);
      v.clear();
      v.position(from);
      v.limit(rp + layout.recordLength(b, at));
      validator.acceptEntry(b, at, v);
    } else if (unique) {
      rememberKey(b, at);
    }
    return true;
  }

  private ByteBuffer view(int s, ByteBuffer b) {
    if (s >= sources.length) {
      int n = Math.max(s + 1, 2 * sources.length);
      sources = Arrays.copyOf(sources, n);
      views = Arrays.copyOf(views, n);
    }
    @SuppressWarnings("ReferenceEquality") // the same buffer object: its view still fits it
    boolean same = sources[s] == b;
    if (!same) {
      sources[s] = b;
      views[s] = b.asReadOnlyBuffer();
    }
    return views[s];
  }

  private boolean sameKeyAsPrevious(ByteBuffer b, int at) {
    if (validator != null) {
      return validator.sameKeyAsPrevious(b, at);
    }
    if (previousLength < 0) {
      return false;
    }
    int kp = layout.keyStart(at);
    int kl = layout.keyLength(b, at);
    if (kl != previousLength) {
      return false;
    }
    for (int i = 0; i < kl; i++) {
      if (previousKey[i] != b.get(kp + i)) {
        return false;
      }
    }
    return true; // equal normalized keys (no inexact key here: that goes through the validator)
  }

  private void rememberKey(ByteBuffer b, int at) {
    int kl = layout.keyLength(b, at);
    if (kl > previousKey.length) {
      previousKey = new byte[Math.max(kl, 2 * previousKey.length)];
    }
    b.get(layout.keyStart(at), previousKey, 0, kl);
    previousLength = kl;
  }
}
