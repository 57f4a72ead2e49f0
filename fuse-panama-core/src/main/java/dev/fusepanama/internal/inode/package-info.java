/**
 * The inode API's way from libfuse to a {@link dev.fusepanama.inode.InodeFileSystem}:
 * {@code InodeSession} creates the session ({@code fuse_session_new}) with one upcall stub per
 * operation the filesystem implements; {@code InodeUpcalls} is where each request arrives from
 * libfuse's low-level API and calls the filesystem's method with a typed reply
 * ({@code TypedReplies}, over {@code NativeReply}) that {@code InodeThread}, each worker thread's
 * state, makes; the reply answers the kernel once, now or later ({@code Replies} holds what a
 * session's replies share, and answers the deferred ones still open at teardown). What both
 * APIs share (the operation tables, error mapping, init, workers) is in
 * {@code internal.dispatch}; the mount's life in {@code internal.mount}.
 */
package dev.fusepanama.internal.inode;
