/**
 * Benchmarks that keep the arena's choice justified ({@code core.memory}): reading 8-byte big-
 * endian key prefixes from a JDK direct buffer, a heap array, a Netty ByteBuf and a Chronicle Bytes
 * store.
 */
package dev.joule.bench.memory;
