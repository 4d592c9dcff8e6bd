package dev.joule.io.pipeline;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.core.key.GnuSortKeys;
import dev.joule.core.key.KeyType;
import dev.joule.core.record.RecordFormat;
import dev.joule.io.IoTestSupport;
import dev.joule.io.config.DataSize;
import dev.joule.io.config.FileKind;
import dev.joule.io.config.LastResort;
import dev.joule.io.config.SortConfig;
import dev.joule.io.plan.SortPlan;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --explain}'s temp space needs count what the runs hold: a keyed text sort's entries carry
 * the key's code besides the line, so its runs are larger than its input, and the stripes' needs
 * must cover them (counting the input, the CSV race's plan said 279 MB for 404 MB of runs).
 */
class TempNeedsTest {
  @TempDir Path dir;

  @Test
  void aKeyedTextPlanNeedsTheRunsVolumeNotTheInputs() throws Exception {
    long seed = IoTestSupport.seed();
    Random r = new Random(seed);
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < 200_000; i++) {
      text.append("n").append(r.nextInt(10_000)).append(',').append(r.nextInt(20_001) - 10_000);
      text.append('\n');
    }
    Path in = Files.writeString(dir.resolve("in.csv"), text, StandardCharsets.US_ASCII);
    SortConfig c =
        SortConfig.builder()
            .format(RecordFormat.lines())
            .key(
                GnuSortKeys.parse(
                    "", ',', KeyType.GnuRelease.COREUTILS_9_1, List.of("2,2n", "1,1r")))
            .lastResort(LastResort.ASCENDING)
            .memoryBudget(DataSize.ofMiB(8))
            .threads(2)
            .tempDirs(List.of(dir))
            .transferSize(FileKind.TEMP, DataSize.ofKiB(4))
            .build();
    SortPlan p = ExternalSorter.plan(in, dir.resolve("out.csv"), c);
    long runVolume = p.mergePlan().runVolume();
    long input = Files.size(in);
    String why = "seed " + seed + ", runs " + runVolume + " bytes, input " + input + "\n" + p;
    // the premise: the runs outgrow the input by more than the per-run blocks the need adds
    assertTrue(runVolume > input + 2L * p.runs() * p.tempTransfer(), why);
    assertTrue(p.tempBytesPerStripe() >= runVolume, why);
  }
}
