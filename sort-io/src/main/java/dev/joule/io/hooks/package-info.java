/**
 * Internal test hooks of a sort ({@link dev.joule.io.hooks.SortHooks}): not exported by the module,
 * so that the public {@code SortConfig} carries them without offering them as API.
 */
package dev.joule.io.hooks;
