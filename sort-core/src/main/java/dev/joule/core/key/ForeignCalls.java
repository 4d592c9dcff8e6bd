package dev.joule.core.key;

import java.lang.invoke.MethodHandle;
import java.lang.reflect.Array;
import java.lang.reflect.Method;
import java.util.Optional;

/**
 * The two C library calls a sort in a locale makes once per key or per tie, {@code strxfrm_l} and
 * {@code strcoll_l}, through the JDK's foreign function API where it is final (JDK 22 and later);
 * {@link LibC}'s JNA binding everywhere else, and for the rest of the locale functions, which run
 * once per sort.
 *
 * <p>Why both: a JNA call costs about 95 ns beyond the C function, a foreign downcall nothing that
 * could be measured (JDK 25, 2·10^6 calls of {@code strcoll_l} on two 46-byte en_US lines that
 * differ at the end: JNA 600 ns, downcall 503 ns; differing at the eighth character: 297 and 203
 * ns). A sort of text in a locale makes one or two such calls per line, and a {@code -k} key shared
 * by many lines several per line. joule is compiled for JDK 17, so the API is reached by reflection
 * once, here; the handles are {@code static final}, which the JIT inlines into a direct call.
 * Pointers go as {@code long} addresses, as in {@link LibC}: the x86-64 and AArch64 calling
 * conventions pass them alike. Not made "critical" (no thread-state switch): it measured the same,
 * and a transform of a long line would hold off the collector for its whole length.
 *
 * <p>The downcalls are restricted methods: a JVM without {@code --enable-native-access} for joule
 * warns once (the launcher and {@code joule.jar} enable it, as JNA needs too), and one with {@code
 * --illegal-native-access=deny} refuses them, in which case JNA is used and {@link #WHY_NOT} says
 * why.
 */
final class ForeignCalls {
  /** The first JDK whose foreign function API is final (JEP 454). */
  static final int FIRST_JDK = 22;

  /** {@code int strcoll_l(const char *, const char *, locale_t)}, or null. */
  static final MethodHandle STRCOLL_L;

  /** {@code size_t strxfrm_l(char *, const char *, size_t, locale_t)}, or null. */
  static final MethodHandle STRXFRM_L;

  /** Why the handles are null (JNA is used), or null when they are bound. */
  static final String WHY_NOT;

  static {
    MethodHandle coll = null;
    MethodHandle xfrm = null;
    String why = null;
    if (Runtime.version().feature() < FIRST_JDK) {
      why = "JDK " + Runtime.version().feature() + " has no final foreign function API";
    } else if (Boolean.getBoolean("joule.locale.jna")) {
      why = "-Djoule.locale.jna=true";
    } else {
      try {
        coll = bind("strcoll_l", int.class, 3);
        xfrm = bind("strxfrm_l", long.class, 4);
      } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
        Throwable cause = e.getCause() != null ? e.getCause() : e;
        why = "the foreign function API refused the binding: " + cause;
        coll = null;
        xfrm = null;
      }
    }
    STRCOLL_L = coll;
    STRXFRM_L = xfrm;
    WHY_NOT = why;
  }

  private ForeignCalls() {}

  /** {@code strcoll_l(a, b, locale)}: through the downcall if bound, else JNA. */
  static int strcoll(long a, long b, long locale) {
    if (STRCOLL_L != null) {
      try {
        return (int) STRCOLL_L.invokeExact(a, b, locale);
      } catch (RuntimeException | Error e) {
        throw e;
      } catch (Throwable t) {
        throw new IllegalStateException("a downcall threw a checked exception", t); // cannot happen
      }
    }
    return LibC.strcoll_l(a, b, locale);
  }

  /** {@code strxfrm_l(dst, src, n, locale)}: through the downcall if bound, else JNA. */
  static long strxfrm(long dst, long src, long n, long locale) {
    if (STRXFRM_L != null) {
      try {
        return (long) STRXFRM_L.invokeExact(dst, src, n, locale);
      } catch (RuntimeException | Error e) {
        throw e;
      } catch (Throwable t) {
        throw new IllegalStateException("a downcall threw a checked exception", t); // cannot happen
      }
    }
    return LibC.strxfrm_l(dst, src, n, locale);
  }

  /** Whether {@link #STRCOLL_L} and {@link #STRXFRM_L} are bound. */
  static boolean bound() {
    return WHY_NOT == null;
  }

  /**
   * A downcall handle of the C library's {@code name} taking {@code arity} 64-bit integers
   * (pointers, sizes, a {@code locale_t}) and returning {@code result} ({@code int.class} or {@code
   * long.class}): {@code Linker.nativeLinker().downcallHandle(lookup.find(name),
   * FunctionDescriptor.of(...))}.
   */
  private static MethodHandle bind(String name, Class<?> result, int arity)
      throws ReflectiveOperationException {
    Class<?> linkerClass = Class.forName("java.lang.foreign.Linker");
    Class<?> optionClass = Class.forName("java.lang.foreign.Linker$Option");
    Class<?> layoutClass = Class.forName("java.lang.foreign.MemoryLayout");
    Class<?> valueLayoutClass = Class.forName("java.lang.foreign.ValueLayout");
    Class<?> descriptorClass = Class.forName("java.lang.foreign.FunctionDescriptor");
    Class<?> segmentClass = Class.forName("java.lang.foreign.MemorySegment");
    Class<?> lookupClass = Class.forName("java.lang.foreign.SymbolLookup");
    Object linker = linkerClass.getMethod("nativeLinker").invoke(null);
    Object lookup = linkerClass.getMethod("defaultLookup").invoke(linker);
    Optional<?> symbol =
        (Optional<?>) lookupClass.getMethod("find", String.class).invoke(lookup, name);
    if (symbol.isEmpty()) {
      throw new NoSuchMethodException("the C library has no " + name);
    }
    Object javaLong = valueLayoutClass.getField("JAVA_LONG").get(null);
    Object returned =
        valueLayoutClass.getField(result == int.class ? "JAVA_INT" : "JAVA_LONG").get(null);
    Object args = Array.newInstance(layoutClass, arity);
    for (int i = 0; i < arity; i++) {
      Array.set(args, i, javaLong);
    }
    Object descriptor =
        descriptorClass.getMethod("of", layoutClass, args.getClass()).invoke(null, returned, args);
    Method downcall =
        linkerClass.getMethod(
            "downcallHandle",
            segmentClass,
            descriptorClass,
            Array.newInstance(optionClass, 0).getClass());
    return (MethodHandle)
        downcall.invoke(linker, symbol.get(), descriptor, Array.newInstance(optionClass, 0));
  }
}
