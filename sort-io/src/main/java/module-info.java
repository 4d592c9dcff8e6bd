/**
 * joule's external sort: file to file, or records pushed in and pulled out sorted. Exported API:
 * {@code dev.joule.io.pipeline} (the {@code ExternalSorter} facade and the {@code SortSession}),
 * {@code dev.joule.io.config} (what to sort and how), {@code dev.joule.io.plan} (how it will run),
 * {@code dev.joule.io.report} (what it did) and {@code dev.joule.io.error} (how it failed).
 * Everything else is internal. Netty is optional: only {@code SortSession.addByteBuf} needs it.
 */
@SuppressWarnings("requires-automatic") // lz4-java has no module-info, only a module name
module dev.joule.io {
  requires transitive dev.joule.core;
  requires jdk.management; // process CPU time for the phase reports
  requires jdk.unsupported; // com.sun.nio.file.ExtendedOpenOption.DIRECT (looked up by name)
  requires static io.netty.buffer;
  requires org.lz4.java; // run compression (LZ4), an automatic module
  requires com.github.luben.zstd_jni; // run compression (zstd)

  exports dev.joule.io.config;
  exports dev.joule.io.error;
  exports dev.joule.io.plan;
  exports dev.joule.io.report;
  exports dev.joule.io.pipeline;
}
