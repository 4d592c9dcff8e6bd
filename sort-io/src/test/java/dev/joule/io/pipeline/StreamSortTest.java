package dev.joule.io.pipeline;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.core.record.RecordFormat;
import dev.joule.io.config.DataSize;
import dev.joule.io.config.SortConfig;
import dev.joule.io.error.SortIOException;
import dev.joule.io.error.SortValidationException;
import dev.joule.io.hooks.OutputFault;
import dev.joule.io.report.DataSummary;
import dev.joule.io.report.SortReport;
import dev.joule.io.report.Timeline;
import dev.joule.io.testing.PipelineTestSupport;
import dev.joule.io.testing.SortInputs;
import dev.joule.io.testing.SortInputs.Kind;
import dev.joule.io.testing.TestHooks;
import dev.joule.testing.TestSeed;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The sort of streams ({@link ExternalSorter#sort(List, Path, SortConfig)} and its stream twin)
 * against the independent reference of {@link SortInputs}: every format, in memory and spilled,
 * read in reads of a few bytes; several streams whose last lines lack their delimiter; no temp dir
 * touched unless it spills; the check's failure named for a stream; the inputs closed.
 */
class StreamSortTest {
  static final long SEED = TestSeed.of(StreamSortTest.class, 0x57_2EA3L);

  @TempDir Path dir;

  @AfterEach
  void leaks() throws Exception {
    PipelineTestSupport.assertNoLeaks("StreamSortTest", List.of(tmp()));
  }

  private Path tmp() throws IOException {
    return Files.createDirectories(dir.resolve("tmp"));
  }

  private SortConfig.Builder config(SortInputs.Input in, int mib) throws IOException {
    return in.configure(
        SortConfig.builder().memoryBudget(DataSize.ofMiB(mib)).threads(2).tempDirs(List.of(tmp())));
  }

  /**
   * {@code data} in reads of random sizes, one in eight of 1 to 9 bytes, as a pipe hands over what
   * its writer has written so far: records and buffers end anywhere.
   */
  static InputStream trickle(byte[] data, long seed) {
    Random r = new Random(seed);
    return new ByteArrayInputStream(data) {
      @Override
      public synchronized int read(byte[] b, int off, int len) {
        int most = r.nextInt(8) == 0 ? 9 : 70_000;
        return super.read(b, off, Math.min(len, 1 + r.nextInt(most)));
      }
    };
  }

  /**
   * Every kind, to a stream and to a file, in memory (128 MiB) and spilled (8 MiB, with runs and a
   * merge): the reference's bytes, the report's counts, the temp dir empty afterwards.
   */
  @ParameterizedTest
  @EnumSource(Kind.class)
  void sortsEveryFormatInMemoryAndSpilledAsTheReference(Kind kind) throws Exception {
    long seed = SEED + kind.ordinal();
    int n = kind.family == SortInputs.Family.FIXED ? 160_000 : 40_000;
    SortInputs.Input in = SortInputs.of(kind, seed, n, 0, SortInputs.Options.DEFAULT);
    for (int mib : new int[] {128, 8}) {
      String ctx = in + " at " + mib + " MiB, seed " + seed;
      SortConfig c = config(in, mib).build();
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      SortReport r =
          ExternalSorter.sort(
              List.of(new SortedInputs.Input(Path.of("-"), trickle(in.data(), seed))),
              out,
              Path.of("/dev/stdout"),
              c);
      assertArrayEquals(in.expected(), out.toByteArray(), ctx);
      assertEquals(in.records(), r.records(), ctx);
      assertEquals(in.data().length, r.bytes(), ctx);
      assertEquals(r.input().checksum(), r.output().checksum(), ctx);
      // a session's own sums, fixed records too: the report says so, as valsort's could not match
      assertEquals(DataSummary.CRC32C, r.input().checksumKind(), ctx);
      assertEquals(DataSummary.CRC32C, r.output().checksumKind(), ctx);
      assertEquals(mib == 8, r.runs() > 0, ctx + ": runs " + r.runs());
      Path file = dir.resolve("out-" + mib);
      ExternalSorter.sort(
          List.of(new SortedInputs.Input(Path.of("in"), new ByteArrayInputStream(in.data()))),
          file,
          c);
      assertArrayEquals(in.expected(), Files.readAllBytes(file), ctx);
      Path inFile = Files.write(dir.resolve("in-" + mib), in.data());
      SortReport f = ExternalSorter.sort(inFile, dir.resolve("file-" + mib), c);
      assertEquals(DataSummary.CRC32, f.output().checksumKind(), ctx + ": the file sort's");
      assertEquals(r.records(), f.output().records(), ctx);
      assertTrue(r.peakMemoryBytes() <= c.memoryBudget().bytes(), ctx + ": " + r);
    }
  }

  /**
   * A stream sorted in a locale has its keys encoded ahead on two threads (docs/decisions/D37), in
   * memory and spilled, and orders as GNU sort does in that locale (the reference: the machine's
   * GNU sort with the same LC_ALL, run on the same bytes); a {@code keys} thread ran.
   */
  @Test
  void aStreamInALocaleEncodesItsKeysAheadAndOrdersAsGnuSort() throws Exception {
    dev.joule.testing.TestLocales.prepare(List.of("en_US.UTF-8"));
    String[] words = {
      "Émile", "emile", "Ölaf", "olaf", "zeta", "Zeta", "ångström", "Angstrom", "café", "cafe",
      "b", "B", "Łódź", "lodz", "éa", "eb", "ß", "ss", "Æther", "aether"
    };
    Random r = new Random(SEED);
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < 300_000; i++) {
      int n = 1 + r.nextInt(4);
      for (int w = 0; w < n; w++) {
        text.append(w == 0 ? "" : " ").append(words[r.nextInt(words.length)]);
      }
      text.append('\n');
    }
    byte[] data = text.toString().getBytes(StandardCharsets.UTF_8);
    Path input = dir.resolve("intl.txt");
    Files.write(input, data);
    ProcessBuilder gnu = new ProcessBuilder("sort", input.toString());
    gnu.environment().put("LC_ALL", "en_US.UTF-8");
    Process p = gnu.redirectError(ProcessBuilder.Redirect.INHERIT).start();
    byte[] expected = p.getInputStream().readAllBytes();
    assertEquals(0, p.waitFor(), "GNU sort");
    assertEquals(data.length, expected.length, "GNU sort's output");
    dev.joule.core.key.KeyType collated =
        dev.joule.core.key.KeyType.collated(dev.joule.core.key.TextLocale.of("en_US.UTF-8"));
    for (int mib : new int[] {128, 8}) {
      List<String> started = java.util.Collections.synchronizedList(new ArrayList<>());
      SortConfig c =
          SortConfig.builder()
              .memoryBudget(DataSize.ofMiB(mib))
              .threads(2)
              .tempDirs(List.of(tmp()))
              .format(RecordFormat.lines())
              .key(
                  dev.joule.core.key.SortKey.of(
                      dev.joule.core.key.KeyField.of(
                          dev.joule.core.key.KeyLocation.wholeRecord(), collated)))
              .lastResort(dev.joule.io.config.LastResort.NONE) // equal lines keep input order
              .threadFactory(
                  body -> {
                    started.add(body.toString());
                    return new Thread(body);
                  })
              .build();
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      SortReport rep =
          ExternalSorter.sort(
              List.of(new SortedInputs.Input(Path.of("-"), trickle(data, SEED))),
              out,
              Path.of("/dev/stdout"),
              c);
      String ctx = mib + " MiB, seed " + SEED;
      assertArrayEquals(expected, out.toByteArray(), ctx);
      assertEquals(mib == 8, rep.runs() > 0, ctx + ": runs " + rep.runs());
      assertTrue(started.stream().anyMatch(t -> t.contains("keys")), ctx + ": " + started);
    }
  }

  /**
   * Several streams are read one after another, each one's last line a line of its own even without
   * its delimiter (GNU sort reads files so), and all of them are closed.
   */
  @Test
  void severalStreamsEachEndALineAndAreClosed() throws Exception {
    List<Boolean> closed = new ArrayList<>();
    List<SortedInputs.Input> inputs = new ArrayList<>();
    for (String text : List.of("delta\nalpha", "", "charlie\n\nbravo\n", "echo")) {
      int i = closed.size();
      closed.add(false);
      byte[] b = text.getBytes(StandardCharsets.US_ASCII);
      inputs.add(
          new SortedInputs.Input(
              Path.of("in" + i),
              new ByteArrayInputStream(b) {
                @Override
                public void close() {
                  closed.set(i, true);
                }
              }));
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    SortConfig c =
        SortConfig.builder().format(RecordFormat.lines()).tempDirs(List.of(tmp())).build();
    SortReport r = ExternalSorter.sort(inputs, out, Path.of("/dev/stdout"), c);
    assertEquals("\nalpha\nbravo\ncharlie\ndelta\necho\n", out.toString(StandardCharsets.US_ASCII));
    assertEquals(6, r.records());
    assertEquals(List.of(true, true, true, true), closed);
    assertEquals(0, r.runs());
    assertEquals("in-memory sort", r.phases().get(0).name());
  }

  /**
   * A sort that fits in memory never looks at its temp dirs (GNU sort needs {@code -T} only when it
   * spills); one that spills fails naming the missing dir, and the output file is not published.
   */
  @Test
  void theTempDirIsUsedOnlyBySortsThatSpill() throws Exception {
    SortInputs.Input in = SortInputs.of(Kind.LINES, SEED, 60_000, 0, SortInputs.Options.DEFAULT);
    Path gone = dir.resolve("gone");
    SortConfig c = config(in, 64).tempDirs(List.of(gone)).build();
    Path out = dir.resolve("out");
    ExternalSorter.sort(
        List.of(new SortedInputs.Input(Path.of("-"), new ByteArrayInputStream(in.data()))), out, c);
    assertArrayEquals(in.expected(), Files.readAllBytes(out));
    assertFalse(Files.exists(gone));
    SortConfig small = config(in, 8).tempDirs(List.of(gone)).build();
    Files.delete(out);
    SortIOException e =
        assertThrows(
            SortIOException.class,
            () ->
                ExternalSorter.sort(
                    List.of(
                        new SortedInputs.Input(Path.of("-"), new ByteArrayInputStream(in.data()))),
                    out,
                    small));
    assertEquals(gone, e.path(), e.getMessage());
    assertFalse(Files.exists(out));
  }

  /**
   * A record the check misses (a test's dropped entry) fails the sort at its end: a stream has had
   * the records, and the message names it and says so; a file output is not published.
   */
  @Test
  void aMismatchFoundAtTheEndNamesTheStreamAndWhatItGot() throws Exception {
    SortInputs.Input in = SortInputs.of(Kind.LINES, SEED, 60_000, 0, SortInputs.Options.DEFAULT);
    for (int mib : new int[] {128, 8}) {
      SortConfig c =
          TestHooks.outputFault(config(in, mib), new OutputFault(OutputFault.Kind.DROP, 1000))
              .build();
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      SortValidationException e =
          assertThrows(
              SortValidationException.class,
              () -> ExternalSorter.sort(List.of(stdin(in.data())), out, Path.of("/dev/stdout"), c));
      String m = e.getMessage();
      assertTrue(m.startsWith("self-validation failed for /dev/stdout: input "), m);
      assertTrue(out.size() > 0 && out.size() < in.expected().length, out.size() + " B: " + m);
      assertTrue(
          m.endsWith("; the " + out.size() + " bytes written to it are not the sorted input"), m);
      Path file = dir.resolve("out");
      Files.writeString(file, "previous");
      e =
          assertThrows(
              SortValidationException.class,
              () -> ExternalSorter.sort(List.of(stdin(in.data())), file, c));
      assertTrue(e.getMessage().endsWith("; nothing was published"), e.getMessage());
      assertEquals("previous", Files.readString(file));
    }
    // Before the first buffer reached the stream: nothing was written.
    SortInputs.Input small = SortInputs.of(Kind.LINES, SEED, 2_000, 0, SortInputs.Options.DEFAULT);
    SortConfig c =
        TestHooks.outputFault(config(small, 64), new OutputFault(OutputFault.Kind.DROP, 10))
            .build();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    SortValidationException e =
        assertThrows(
            SortValidationException.class,
            () ->
                ExternalSorter.sort(List.of(stdin(small.data())), out, Path.of("/dev/stdout"), c));
    assertTrue(e.getMessage().endsWith("; nothing was written to it"), e.getMessage());
    assertEquals(0, out.size());
  }

  private static SortedInputs.Input stdin(byte[] data) {
    return new SortedInputs.Input(Path.of("-"), new ByteArrayInputStream(data));
  }

  /**
   * The report of a spilled sort of a stream: run formation then the final merge, and a timeline
   * whose input, temp and output devices add up to the bytes read, spilled and written.
   */
  @Test
  void theReportOfASpilledStreamHasItsPhasesAndTimeline() throws Exception {
    SortInputs.Input in = SortInputs.of(Kind.LINES, SEED, 40_000, 0, SortInputs.Options.DEFAULT);
    SortConfig c = config(in, 8).timelineInterval(java.time.Duration.ofMillis(5)).build();
    Path out = dir.resolve("out");
    SortReport r = ExternalSorter.sort(List.of(stdin(in.data())), out, c);
    assertArrayEquals(in.expected(), Files.readAllBytes(out));
    assertTrue(r.runs() > 1, r.toString());
    List<String> names = r.phases().stream().map(p -> p.name()).toList();
    assertTrue(names.get(0).startsWith("run formation"), names.toString());
    assertTrue(names.get(names.size() - 1).endsWith("(final, 1 part)"), names.toString());
    Timeline t = r.timeline();
    assertEquals(List.of("input", "temp 0", "output"), List.copyOf(t.devices().keySet()));
    assertEquals(in.data().length, sum(t, "input", true));
    assertEquals(in.expected().length, sum(t, "output", false));
    assertEquals(r.devices().get(0).bytesWritten(), sum(t, "temp 0", false));
    assertEquals(names, t.phases().stream().map(p -> p.name()).toList());
  }

  private static long sum(Timeline t, String device, boolean read) {
    return t.of(device).stream().mapToLong(d -> read ? d.bytesRead() : d.bytesWritten()).sum();
  }

  /** Fixed records must be whole in each stream: the file sort's words for the trailing bytes. */
  @Test
  void aPartialFixedRecordIsRefusedInTheFileSortsWords() throws Exception {
    SortInputs.Input in = SortInputs.of(Kind.FIXED_16, SEED, 1000, 0, SortInputs.Options.DEFAULT);
    byte[] cut = Arrays.copyOf(in.data(), in.data().length - 5);
    SortConfig c = config(in, 8).build();
    SortIOException e =
        assertThrows(
            SortIOException.class,
            () ->
                ExternalSorter.sort(
                    List.of(new SortedInputs.Input(Path.of("-"), trickle(cut, SEED))),
                    new ByteArrayOutputStream(),
                    Path.of("/dev/stdout"),
                    c));
    assertEquals(
        "read failed: -: input size 15995 is not a multiple of record size 16: 11 trailing bytes"
            + " at offset 15984",
        e.getMessage());
  }
}
