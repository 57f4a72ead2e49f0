package dev.fusepanama.inode;

import dev.fusepanama.Mount;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;

/**
 * A live mount of an {@link InodeFileSystem}, with the notifications that tell the kernel what
 * changed behind its back, so that caching can stay on for a filesystem whose store changes
 * underneath (a sync client, another program writing the backing directory).
 *
 * <p>Call them from any thread of the application, not from inside one of this mount's
 * operations (the kernel may wait for that very operation: libfuse documents a deadlock), and
 * not while holding a lock an operation may need. Each returns false when the kernel holds
 * nothing for the inode or name (never looked up, or forgotten): there was nothing to change.
 *
 * <p>Each method throws {@link IllegalStateException} if the mount has ended or when called from
 * inside one of its operations, and {@link IOException} if the kernel refused the notification
 * (its errno in the message).
 */
public interface InodeMount extends Mount {
    /**
     * Drops the kernel's cached attributes of {@code ino} and, unless {@code offset} is negative,
     * its cached data from {@code offset} for {@code length} bytes (0: to the end of the file).
     * With writeback caching, dirty pages in the range are written first.
     */
    boolean invalidateInode(long ino, long offset, long length) throws IOException;

    /** Drops the kernel's cached name {@code name} in directory {@code parent} (and the parent's attributes). */
    boolean invalidateEntry(long parent, byte[] name) throws IOException;

    /**
     * Marks the cached name as expired without dropping it (libfuse 3.13+): the next lookup asks
     * the filesystem, and until then a process that has it in use keeps it. Falls back to
     * {@link #invalidateEntry} on older libfuse.
     */
    boolean expireEntry(long parent, byte[] name) throws IOException;

    /**
     * Tells the kernel that {@code name} in {@code parent}, which was inode {@code child}, is gone:
     * as {@link #invalidateEntry}, and the kernel also stops showing the file at that name to
     * processes that have it open as their working directory or below it.
     */
    boolean deleteEntry(long parent, long child, byte[] name) throws IOException;

    /**
     * Puts {@code data} into the kernel's page cache for {@code ino} at {@code offset} (growing
     * the cached size if it ends past it), so the next reads are answered without asking.
     */
    boolean store(long ino, long offset, ByteBuffer data) throws IOException;

    /**
     * Asks the kernel for the data of {@code ino} it holds in its page cache, from {@code offset}
     * for at most {@code size} bytes. The kernel sends the pages it has cached from there on,
     * stopping at the first one it lacks, at the end of the file or at the connection's request
     * size (max_pages, 1 MiB by default): the future completes with those bytes, possibly fewer
     * than asked or none. It completes on a libfuse worker thread (dependent actions run there
     * unless added with an {@code ...Async} method), at once with no bytes when the kernel holds
     * nothing for the inode, and exceptionally if the mount ends before the kernel answers.
     */
    CompletableFuture<byte[]> retrieve(long ino, long offset, int size) throws IOException;

    /**
     * Makes everything the kernel cached about names and attributes in this mount stale at once
     * (the connection's epoch moves on): each name and inode is asked about again at its next
     * use, as if its timeout had run out, without naming them one by one. For a store that
     * changed wholesale behind the kernel's back (a snapshot restored, a sync caught up).
     * Cached file data is not touched ({@link #invalidateInode} drops that).
     *
     * @throws UnsupportedOperationException if the loaded libfuse (3.18+) or the kernel (Linux
     *         6.16+) has no epoch; the message says which
     */
    void incrementEpoch() throws IOException;
}
