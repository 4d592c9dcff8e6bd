package dev.joule.io.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.io.config.DataSize;
import dev.joule.io.config.FileKind;
import dev.joule.io.config.SortConfig;
import dev.joule.io.config.TransferSizes;
import dev.joule.io.error.SortIOException;
import org.junit.jupiter.api.Test;

/** Default transfers shrink to a small input; the user's own and those of unknown inputs stay. */
class SortPlanTransferTest {
  private static final int DEFAULT = TransferSizes.DEFAULT_TRANSFER;

  private static SortConfig config() {
    return SortConfig.builder().memoryBudget(DataSize.ofMiB(1024)).build();
  }

  @Test
  void aSmallInputGetsTransfersOfItsSizeRoundedToAPage() throws SortIOException {
    SortPlan p = SortPlan.of(1000, config());
    assertEquals(4096, p.inputTransfer());
    assertEquals(4096, p.outputTransfer());
    assertEquals(4096, p.tempTransfer());
    // 4096 bytes and a delimiter the last line may lack: two pages for the output.
    assertEquals(8192, SortPlan.of(4096, config()).outputTransfer());
    SortPlan mid = SortPlan.of(300_000, config());
    assertEquals(303_104, mid.inputTransfer());
    assertTrue(mid.sortMemory() < 2 << 20, () -> "memory " + mid.sortMemory());
  }

  @Test
  void largeUnknownAndChosenTransfersStay() throws SortIOException {
    SortPlan big = SortPlan.of(100L << 20, config());
    assertEquals(DEFAULT, big.inputTransfer());
    assertEquals(DEFAULT, big.outputTransfer());
    SortPlan unknown = SortPlan.of(0, config()); // a session of pushed records
    assertEquals(DEFAULT, unknown.inputTransfer());
    assertEquals(DEFAULT, unknown.outputTransfer());
    SortConfig chosen =
        SortConfig.builder()
            .memoryBudget(DataSize.ofMiB(1024))
            .transferSize(FileKind.OUTPUT, DataSize.ofMiB(1))
            .build();
    assertEquals(1 << 20, SortPlan.of(1000, chosen).outputTransfer());
    assertEquals(4096, SortPlan.of(1000, chosen).inputTransfer());
  }
}
