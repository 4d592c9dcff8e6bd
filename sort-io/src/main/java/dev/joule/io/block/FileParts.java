package dev.joule.io.block;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * Where the bytes of one logical file are: a single path, or the segment files of a block-striped
 * file and the {@link StripeMap} that says which bytes each holds. Segment {@code i} lives on the
 * temp stripe (device) numbered {@code stripe(i)}, so that I/O can be queued per device, and its
 * transfers are counted on that device's {@link DeviceMeter} by every {@link BlockFile} opened on
 * these parts.
 *
 * <p>Immutable; equal when paths, stripes and map agree (the meters are not part of the identity).
 */
public final class FileParts {
  private final List<Path> paths;
  private final int[] stripes;
  private final StripeMap map; // null for a single file
  private final DeviceMeter[] meters;

  private FileParts(List<Path> paths, int[] stripes, StripeMap map, DeviceMeter[] meters) {
    this.paths = List.copyOf(paths);
    this.stripes = stripes.clone();
    this.map = map;
    this.meters = meters.clone();
  }

  /** A plain file on stripe 0 (or not a temp file at all). */
  public static FileParts single(Path path) {
    return new FileParts(List.of(path), new int[] {0}, null, new DeviceMeter[] {DeviceMeter.NONE});
  }

  /** A plain file on stripe {@code stripe}, whose transfers {@code meter} counts. */
  public static FileParts single(Path path, int stripe, DeviceMeter meter) {
    return new FileParts(List.of(path), new int[] {stripe}, null, new DeviceMeter[] {meter});
  }

  /**
   * A striped file: segment {@code i} is {@code paths.get(i)} on stripe {@code stripes[i]}, laid
   * out by {@code map} (which must have {@code paths.size()} segments), its transfers counted on
   * {@code meters[i]}.
   */
  public static FileParts striped(
      List<Path> paths, int[] stripes, StripeMap map, DeviceMeter[] meters) {
    if (paths.size() != stripes.length
        || map.segments() != paths.size()
        || meters.length != paths.size()) {
      throw new IllegalArgumentException(
          paths.size()
              + " paths, "
              + stripes.length
              + " stripes, "
              + meters.length
              + " meters, "
              + map.segments()
              + " segments");
    }
    return paths.size() == 1
        ? single(paths.get(0), stripes[0], meters[0])
        : new FileParts(paths, stripes, map, meters);
  }

  /** As {@link #striped(List, int[], StripeMap, DeviceMeter[])}, counted nowhere. */
  public static FileParts striped(List<Path> paths, int[] stripes, StripeMap map) {
    DeviceMeter[] none = new DeviceMeter[paths.size()];
    java.util.Arrays.fill(none, DeviceMeter.NONE);
    return striped(paths, stripes, map, none);
  }

  /** The meter of segment {@code i}'s device. */
  public DeviceMeter meter(int i) {
    return meters[i];
  }

  /** The meter of the device that holds byte {@code position}. */
  public DeviceMeter meterAt(long position) {
    return map == null ? meters[0] : meters[map.segment(position)];
  }

  /** The first segment's path: the name of the file in messages and hooks. */
  public Path path() {
    return paths.get(0);
  }

  /** Every segment's path, in segment order. */
  public List<Path> paths() {
    return paths;
  }

  /** Number of segments (1 for a plain file). */
  public int segments() {
    return paths.size();
  }

  /** The stripe of segment {@code i}. */
  public int stripe(int i) {
    return stripes[i];
  }

  /** The layout of a striped file, or null for a plain one. */
  public StripeMap map() {
    return map;
  }

  /** The stripe that holds byte {@code position}. */
  public int stripeAt(long position) {
    return map == null ? stripes[0] : stripes[map.segment(position)];
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof FileParts p
        && paths.equals(p.paths)
        && java.util.Arrays.equals(stripes, p.stripes)
        && Objects.equals(String.valueOf(map), String.valueOf(p.map));
  }

  @Override
  public int hashCode() {
    return paths.hashCode();
  }

  @Override
  public String toString() {
    return paths.size() == 1 ? paths.get(0).toString() : paths + " striped by " + map;
  }
}
