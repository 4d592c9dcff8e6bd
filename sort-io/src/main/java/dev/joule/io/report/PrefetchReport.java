package dev.joule.io.report;

/**
 * How well the merges' prefetch kept ahead of them, summed over every merge of a sort: of the
 * blocks the merges took, how many they had to wait for (a read still in flight) and how many they
 * read themselves (the prefetcher had not reached them). Few of both means the merge waited only
 * where the forecast ran out.
 *
 * @param blocks blocks the merges took
 * @param waited blocks whose read was in flight when the merge asked for them
 * @param selfRead blocks the merge read on its own thread
 * @param waitNanos time the merges spent waiting for reads in flight
 */
public record PrefetchReport(long blocks, long waited, long selfRead, long waitNanos) {
  /** No merge. */
  public static final PrefetchReport NONE = new PrefetchReport(0, 0, 0, 0);

  /** These and {@code o}'s counts added. */
  public PrefetchReport plus(PrefetchReport o) {
    return new PrefetchReport(
        blocks + o.blocks, waited + o.waited, selfRead + o.selfRead, waitNanos + o.waitNanos);
  }

  void appendJson(JsonWriter w) {
    w.beginObject("prefetch")
        .field("blocks", blocks)
        .field("waited", waited)
        .field("selfRead", selfRead)
        .field("waitSeconds", waitNanos / 1e9)
        .endObject();
  }
}
