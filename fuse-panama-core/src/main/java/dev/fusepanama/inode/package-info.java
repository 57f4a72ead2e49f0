/**
 * The inode API: a filesystem served through libfuse's low-level API, which names every file by
 * an inode number instead of a path (work in progress on this branch; not exported yet).
 *
 * <h2>Inodes and lookups</h2>
 * The kernel learns a file's inode number from a reply that names it ({@link
 * dev.fusepanama.inode.EntryReply}: lookup, mknod, mkdir, symlink, link, create) and from then
 * on uses the number alone. Each such reply adds one to the inode's <em>lookup count</em>;
 * {@link dev.fusepanama.inode.InodeFileSystem#forget} takes them away again. A filesystem must
 * keep an inode answerable while its lookup count is above zero, even after its last name is
 * gone: this is what lets {@code fstat} of an unlinked open file work, which the path API
 * cannot do. Inode 1 is the root, and is never forgotten. An inode number reused for another
 * file must come with a new generation number.
 *
 * <h2>Replies</h2>
 * Every operation but forget receives a reply object of the one kind its answer takes, so a
 * wrong kind of answer does not compile. A reply is sent once: a second send throws. A method
 * may return without replying only after calling {@code defer()}: it then replies later, from
 * any thread. A method that returns without either, or throws before replying, is answered
 * with an error ({@code EIO}, or the exception's errno) and logged once. Closing the mount waits
 * for deferred replies, then answers the rest with an error, before the session is freed.
 *
 * <h2>Caching</h2>
 * Timeouts travel with each reply ({@link dev.fusepanama.inode.EntryReply#entry}, {@link
 * dev.fusepanama.inode.AttrReply#attributes}); a filesystem that is the only writer can cache
 * for as long as it likes, and one whose store changes underneath tells the kernel through the
 * mount's notifications.
 */
package dev.fusepanama.inode;
