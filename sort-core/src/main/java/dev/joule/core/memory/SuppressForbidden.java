package dev.joule.core.memory;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks one of the few places allowed to use an API that the build forbids (the forbiddenapis lists
 * in {@code build-config/forbidden-apis}), such as the owners of direct memory. The reason goes in
 * {@link #value()}, so that a reviewer sees why the exception is safe.
 */
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.TYPE, ElementType.METHOD, ElementType.CONSTRUCTOR, ElementType.FIELD})
public @interface SuppressForbidden {
  /** Why this use of a forbidden API is correct here. */
  String value();
}
