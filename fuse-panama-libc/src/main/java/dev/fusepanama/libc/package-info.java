/**
 * The C library as a filesystem that forwards to real files needs it (a mirror, a vault over a
 * cipher directory, a test that calls what a C program would): each call bound once per JVM,
 * and the native memory to make them with.
 *
 * <ul>
 *   <li>{@link dev.fusepanama.libc.Libc}: the calls. One convention for every call that can
 *       fail: it returns what the C function returns on success and {@code -errno} on failure,
 *       the value a {@code dev.fusepanama} filesystem method answers with, so a pass-through
 *       method can return it as it is. errno is captured on the calling thread
 *       ({@link java.lang.foreign.Linker.Option#captureCallState}) into a segment the thread
 *       allocates once, so a call allocates nothing and no other thread's call can change it.
 *   <li>{@link dev.fusepanama.libc.Scratch}: each thread's native memory for the calls (paths,
 *       small structs, a directory batch, a growing I/O buffer), made on first use and reused.
 *   <li>{@link dev.fusepanama.libc.Dirents}: the records {@code getdents64(2)} returns, read one
 *       by one.
 *   <li>{@link dev.fusepanama.libc.Arch}: what differs between the supported architectures
 *       (open flags, {@code struct stat}, the older system call numbers).
 * </ul>
 *
 * <p>Paths and names are NUL-terminated byte strings in native memory: file names on Linux are
 * bytes, not text.
 */
package dev.fusepanama.libc;
