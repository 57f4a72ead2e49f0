/**
 * The inode API: a filesystem served through libfuse's low-level API, which names every file by
 * an inode number instead of a path. Mount one with {@link dev.fusepanama.Fuse#mount(InodeFileSystem,
 * java.nio.file.Path, dev.fusepanama.MountOptions)}; the mount ({@link InodeMount}) adds the
 * notifications.
 *
 * <h2>Which API to choose</h2>
 * {@link dev.fusepanama.FuseFileSystem} (paths) is the shorter way to a filesystem that mirrors
 * or presents something path-shaped: libfuse keeps the table from kernel inodes to paths, and a
 * method gets "/dir/file". Choose this API instead when the filesystem has inodes of its own (an
 * in-memory or database-backed tree, a vault), when it must behave exactly like a kernel
 * filesystem, or when it should be fast:
 * <ul>
 *   <li>{@code fstat} of an open file whose name is gone (unlinked, renamed over, one hard link
 *       removed) answers; the path API answers ESTALE, having no name left to ask with.</li>
 *   <li>Timeouts travel with each reply, so names and attributes can be cached by the kernel for
 *       as long as they stay true, hard links included (the path API must turn attribute
 *       caching off for them).</li>
 *   <li>{@link InodeMount} tells the kernel what changed behind its back: an inode's attributes
 *       and data, a name, data to put straight into the page cache; and it reads back what the
 *       page cache holds ({@link InodeMount#retrieve}).</li>
 *   <li>Nothing is allocated per request but the reply object (no path strings), and
 *       a listing ({@link InodeFileSystem#readdir}, READDIRPLUS) answers {@code ls -l} without
 *       a lookup per entry.</li>
 * </ul>
 *
 * <h2>Inodes and lookups</h2>
 * The kernel learns a file's inode number from a reply that names it ({@link EntryReply}:
 * lookup, mknod, mkdir, symlink, link; {@link CreateReply}; each entry with an inode a
 * READDIRPLUS {@link DirReply} takes) and from then on uses the number alone. Each such reply adds one to the inode's
 * <em>lookup count</em>; the kernel's FORGET takes them away again. A filesystem that keeps its
 * nodes in a {@link dev.fusepanama.inode.table.NodeTable} (or another {@link LookupCounter})
 * returns it from {@link InodeFileSystem#lookups()}, and the library does the counting: each
 * entry counted as it is sent, taken back if the kernel did not take it, the forgets brought to
 * the counter; otherwise {@link InodeFileSystem#forget} gets them. A filesystem must
 * keep an inode answerable while its lookup count is above zero, even after its last name is
 * gone. Inode 1 is the root, and is never forgotten. An inode number reused for another file
 * must come with a new generation number.
 *
 * <h2>Replies</h2>
 * Every operation but forget receives a reply object of the one kind its answer takes, so a
 * wrong kind of answer does not compile. A reply is sent once: a second answer throws. A method
 * may return without answering only after {@link Reply#defer()}: it then answers later, from
 * any thread. A method that returns without either is answered EIO and logged; one that throws
 * before answering is answered with the exception's errno ({@link dev.fusepanama.ErrnoException},
 * the {@code java.nio.file} exceptions, else EIO). When the mount ends, replies still deferred
 * are answered with an error before the session is freed, and answers sent after that are
 * dropped.
 *
 * <h2>What the kernel caches</h2>
 * Three things, each for as long as the filesystem allows: a name ({@link EntryReply}'s entry
 * timeout; a name that does not exist too, as a negative entry), an inode's attributes (the
 * attribute timeout of each entry and {@link AttrReply}), and file data and directory listings
 * in the page cache ({@link OpenReply#KEEP_CACHE}, {@link OpenReply#CACHE_DIR}). Beyond that the
 * kernel asks for what it could answer itself unless told it may not: an OPENDIR and RELEASEDIR
 * per directory walked, a {@code security.capability} lookup before each write, a lookup of each
 * absent name. {@link InodeFileSystem#kernelSettings} states which of those the filesystem lets
 * the kernel answer ({@link dev.fusepanama.KernelSettings}); each is a promise about its behaviour (a listing
 * without a handle, set-ID bits cleared by the filesystem, {@link SetId}). A filesystem whose
 * store changes behind the kernel keeps what it allowed exact with {@link InodeMount}'s
 * notifications. The kernel refreshes an inode's atime after it read its data or listing from
 * the filesystem, whatever the timeouts: the next {@code stat} asks.
 *
 * <h2>Settings</h2>
 * {@link dev.fusepanama.MountOptions} applies as for the path API, and so do the capabilities of
 * {@link dev.fusepanama.KernelSettings}. The path API's timeouts and page-cache modes
 * ({@code attrTimeout}, {@code keepCache}, {@code directIo}) and its layer's settings
 * ({@link dev.fusepanama.PathOptions}) have no place here, and an inode mount refuses them:
 * they travel with each reply ({@link Timeouts}, {@link OpenReply#DIRECT_IO},
 * {@link OpenReply#KEEP_CACHE}).
 */
package dev.fusepanama.inode;
