/**
 * joule's sort engine without file I/O. Exported API: record formats and keys ({@code
 * dev.joule.core.record}), sort keys as bytes ({@code dev.joule.core.key}), gensort ({@code
 * dev.joule.core.gensort}) and valsort ({@code dev.joule.core.valsort}). The engine's stages
 * (arenas, index, radix sorter, gather, merge) are exported only to {@code dev.joule.io}, which
 * drives them.
 */
@SuppressWarnings("module") // dev.joule.io is compiled after this module
module dev.joule.core {
  requires com.sun.jna;

  exports dev.joule.core.record;
  exports dev.joule.core.key;
  exports dev.joule.core.gensort;
  exports dev.joule.core.valsort;
  exports dev.joule.core.memory to
      dev.joule.io;
  exports dev.joule.core.index to
      dev.joule.io;
  exports dev.joule.core.radix to
      dev.joule.io;
  exports dev.joule.core.gather to
      dev.joule.io;
  exports dev.joule.core.merge to
      dev.joule.io;
}
