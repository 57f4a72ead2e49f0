/**
 * The C library calls a filesystem that forwards to real files needs (a mirror, a vault over a
 * cipher directory), bound once per JVM and shared by the library, its examples and its test
 * kit.
 *
 * <p>Every call that can fail returns what the C function returns on success and {@code -errno}
 * on failure, the value a {@link dev.fusepanama.FuseFileSystem} method answers with, so a
 * pass-through method can return the result as it is. errno is read through
 * {@link java.lang.foreign.Linker.Option#captureCallState}: the caller passes the segment the
 * JVM copies errno into, and should allocate it once per thread ({@link
 * dev.fusepanama.libc.Libc#errno()}), never once per call: a fresh capture segment per call is
 * the cost openjdk PR 23517 measured.
 *
 * <p>Paths and names are NUL-terminated byte strings in native memory: file names on Linux are
 * bytes, not text.
 */
package dev.fusepanama.libc;
