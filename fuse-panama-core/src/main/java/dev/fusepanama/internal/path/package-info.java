/**
 * The path API's way from libfuse to a {@link dev.fusepanama.FuseFileSystem}: {@code PathSession}
 * creates the session ({@code fuse_new}) with one upcall stub per operation the filesystem
 * implements; {@code Upcalls} is where each request arrives from libfuse's high-level API and
 * calls the filesystem's method with views that {@code PathThread}, each worker thread's state,
 * keeps ready; the method's int is libfuse's answer. What both APIs share (the operation tables,
 * error mapping, init, workers) is in {@code internal.dispatch}; the mount's life in
 * {@code internal.mount}.
 */
package dev.fusepanama.internal.path;
