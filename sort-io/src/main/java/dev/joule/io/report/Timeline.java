package dev.joule.io.report;

import dev.joule.io.config.DeviceSample;
import dev.joule.io.config.TimelineSample;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A sort over time: one {@link TimelineSample} per interval (bytes, transfers in flight and waits
 * per device; the process's CPU) and when each phase ran. The samples are the ones the {@code
 * TimelineListener} was given; the last covers the rest of the sort, so a device's bytes summed
 * over all samples are its totals.
 *
 * <p>Immutable.
 *
 * @param intervalNanos the sampling interval (0: no timeline was taken)
 * @param samples the samples, in time order
 * @param phases the phases, in order
 * @param samplerCpuNanos CPU time the sampler thread itself used (its cost, next to the process's)
 */
public record Timeline(
    long intervalNanos,
    List<TimelineSample> samples,
    List<PhaseSpan> phases,
    long samplerCpuNanos) {
  /** No timeline: the interval was zero, or the sort was not a file sort. */
  public static final Timeline NONE = new Timeline(0, List.of(), List.of(), 0);

  /** Copies the lists. */
  public Timeline {
    samples = List.copyOf(samples);
    phases = List.copyOf(phases);
  }

  /**
   * The devices seen in the samples, in the order they first appear (input, temp stripes, output),
   * each with its path.
   */
  public Map<String, String> devices() {
    Map<String, String> seen = new LinkedHashMap<>();
    for (TimelineSample s : samples) {
      for (DeviceSample d : s.devices()) {
        seen.putIfAbsent(d.device(), d.path());
      }
    }
    return seen;
  }

  /** The sort's duration on this timeline: the end of the last sample. */
  public long endNanos() {
    return samples.isEmpty() ? 0 : samples.get(samples.size() - 1).endNanos();
  }

  /** {@code device}'s sample in each interval, an empty one where it was not open yet. */
  public List<DeviceSample> of(String device) {
    List<DeviceSample> list = new ArrayList<>(samples.size());
    for (TimelineSample s : samples) {
      DeviceSample found = new DeviceSample(device, "", 0, 0, 0, 0, 0);
      for (DeviceSample d : s.devices()) {
        if (d.device().equals(device)) {
          found = d;
          break;
        }
      }
      list.add(found);
    }
    return list;
  }

  void appendJson(JsonWriter w) {
    w.beginObject("timeline")
        .field("intervalSeconds", intervalNanos / 1e9)
        .field("samplerCpuSeconds", samplerCpuNanos / 1e9);
    w.beginArray("devices");
    for (Map.Entry<String, String> d : devices().entrySet()) {
      w.beginObject().field("device", d.getKey()).field("path", d.getValue()).endObject();
    }
    w.endArray().beginArray("phases");
    for (PhaseSpan p : phases) {
      w.beginObject()
          .field("name", p.name())
          .field("startSeconds", p.startNanos() / 1e9)
          .field("endSeconds", p.endNanos() / 1e9)
          .endObject();
    }
    w.endArray().beginArray("samples");
    for (TimelineSample s : samples) {
      w.beginObject()
          .field("startSeconds", s.startNanos() / 1e9)
          .field("endSeconds", s.endNanos() / 1e9)
          .field("phase", s.phase())
          .field("cpuSeconds", s.cpuNanos() / 1e9)
          .beginArray("devices");
      for (DeviceSample d : s.devices()) {
        w.beginObject()
            .field("device", d.device())
            .field("bytesRead", d.bytesRead())
            .field("bytesWritten", d.bytesWritten())
            .field("inFlight", d.inFlight())
            .field("busySeconds", d.busyNanos() / 1e9)
            .field("waitSeconds", d.waitNanos() / 1e9)
            .endObject();
      }
      w.endArray().endObject();
    }
    w.endArray().endObject();
  }
}
