package dev.joule.core.key;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Platform;

/**
 * The GNU C library's locale functions, bound through JNA's direct mapping (a JNI stub per method,
 * no reflection or argument objects per call). Pointers are passed and returned as {@code long}
 * addresses, which the x86-64 and AArch64 calling conventions pass exactly as pointers, so that a
 * call allocates nothing; {@code size_t} is {@code long} on both.
 *
 * <p>On JDK 22 and later the two calls a sort makes per key, {@code strxfrm_l} and {@code
 * strcoll_l}, go through the JDK's foreign function API instead ({@link ForeignCalls}).
 *
 * <p>The category numbers and masks are glibc's ({@code locale.h}, {@code langinfo.h}): this class
 * is used only on Linux with glibc ({@link #UNAVAILABLE} says why not elsewhere). Thread-safety:
 * every function here is thread-safe on a {@code locale_t} that no thread frees.
 */
final class LibC {
  static final int LC_CTYPE = 0;
  static final int LC_NUMERIC = 1;
  static final int LC_TIME = 2;
  static final int LC_COLLATE = 3;
  static final int LC_MONETARY = 4;
  static final int LC_MESSAGES = 5;
  static final int LC_PAPER = 7;
  static final int LC_NAME = 8;
  static final int LC_ADDRESS = 9;
  static final int LC_TELEPHONE = 10;
  static final int LC_MEASUREMENT = 11;
  static final int LC_IDENTIFICATION = 12;

  /** {@code nl_langinfo} items: {@code _NL_ITEM(category, index)}. */
  static final int CODESET = (LC_CTYPE << 16) | 14;

  static final int RADIXCHAR = LC_NUMERIC << 16;
  static final int THOUSEP = (LC_NUMERIC << 16) | 1;
  static final int ABMON_1 = (LC_TIME << 16) | 14;

  /**
   * Why the binding cannot be used here (not Linux, or JNA failed to load its stub), or null when
   * it can.
   */
  static final String UNAVAILABLE;

  static {
    String why = null;
    if (!Platform.isLinux()) {
      why = "sorting in a locale needs the GNU C library (Linux); this is " + Platform.getOSType();
    } else {
      try {
        Native.register(LibC.class, NativeLibrary.getInstance(Platform.C_LIBRARY_NAME));
      } catch (UnsatisfiedLinkError | RuntimeException e) {
        why = "the C library's locale functions could not be bound through JNA: " + e;
      }
    }
    UNAVAILABLE = why;
  }

  private LibC() {}

  /** {@code locale_t newlocale(int mask, const char *name, locale_t base)}; 0 on failure. */
  static native long newlocale(int mask, String name, long base);

  /** {@code void freelocale(locale_t)}. */
  static native void freelocale(long locale);

  /** {@code size_t strxfrm_l(char *dst, const char *src, size_t n, locale_t)}. */
  static native long strxfrm_l(long dst, long src, long n, long locale);

  /** {@code int strcoll_l(const char *, const char *, locale_t)}. */
  static native int strcoll_l(long a, long b, long locale);

  /** {@code char *nl_langinfo_l(nl_item, locale_t)}: a string the locale owns. */
  static native long nl_langinfo_l(int item, long locale);

  /** {@code size_t strlen(const char *)}. */
  static native long strlen(long s);

  static native int isalnum_l(int c, long locale);

  static native int isblank_l(int c, long locale);

  static native int isprint_l(int c, long locale);

  static native int toupper_l(int c, long locale);

  static native int iscntrl_l(int c, long locale);

  /** {@code locale_t uselocale(locale_t)}: sets the calling thread's locale, returns the last. */
  static native long uselocale(long locale);

  /** {@code size_t __ctype_get_mb_cur_max(void)}: {@code MB_CUR_MAX} of the thread's locale. */
  static native long __ctype_get_mb_cur_max();

  /** {@code size_t mbrtowc(wchar_t *, const char *, size_t, mbstate_t *)}, thread's locale. */
  static native long mbrtowc(long wc, long s, long n, long state);

  /** {@code int mbsinit(const mbstate_t *)}. */
  static native int mbsinit(long state);

  /** {@code int wcwidth(wchar_t)}, thread's locale. */
  static native int wcwidth(int wc);

  /** {@code int iswcntrl(wint_t)}, thread's locale. */
  static native int iswcntrl(int wc);
}
