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
     *
     * @param ino the inode's node id
     * @param offset where the data to drop starts, in bytes; negative to drop the attributes only
     * @param length how many bytes of data to drop, 0 for all to the end of the file
     * @return false if the kernel holds nothing for the inode
     * @throws IOException if the kernel refused the notification
     */
    boolean invalidateInode(long ino, long offset, long length) throws IOException;

    /**
     * Drops the kernel's cached name {@code name} in directory {@code parent} (and the parent's attributes).
     *
     * @param parent the directory's node id
     * @param name the name's bytes, without a NUL
     * @return false if the kernel holds nothing for the name
     * @throws IllegalArgumentException if {@code name} is empty or longer than 255 bytes
     * @throws IOException if the kernel refused the notification
     */
    boolean invalidateEntry(long parent, byte[] name) throws IOException;

    /**
     * Marks the cached name as expired without dropping it (libfuse 3.13+): the next lookup asks
     * the filesystem, and until then a process that has it in use keeps it. Falls back to
     * {@link #invalidateEntry} on older libfuse, and on a kernel without expiry (before Linux 6.2).
     *
     * @param parent the directory's node id
     * @param name the name's bytes, without a NUL
     * @return false if the kernel holds nothing for the name
     * @throws IllegalArgumentException if {@code name} is empty or longer than 255 bytes
     * @throws IOException if the kernel refused the notification
     */
    boolean expireEntry(long parent, byte[] name) throws IOException;

    /**
     * Tells the kernel that {@code name} in {@code parent}, which was inode {@code child}, is gone:
     * as {@link #invalidateEntry}, and the kernel also stops showing the file at that name to
     * processes that have it open as their working directory or below it.
     *
     * @param parent the directory's node id
     * @param child the node id the name led to
     * @param name the name's bytes, without a NUL
     * @return false if the kernel holds nothing for the name
     * @throws IllegalArgumentException if {@code name} is empty or longer than 255 bytes
     * @throws IOException if the kernel refused the notification
     */
    boolean deleteEntry(long parent, long child, byte[] name) throws IOException;

    /**
     * Puts {@code data} into the kernel's page cache for {@code ino} at {@code offset} (growing
     * the cached size if it ends past it), so the next reads are answered without asking.
     *
     * @param ino the inode's node id
     * @param offset where the data goes in the file, in bytes, at least 0
     * @param data the bytes to store, its remaining ones; copied before this returns, position not moved
     * @return false if the kernel holds nothing for the inode
     * @throws IllegalArgumentException if {@code offset} is negative
     * @throws IOException if the kernel refused the notification
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
     *
     * @param ino the inode's node id
     * @param offset where the data to retrieve starts, in bytes, at least 0
     * @param size the most bytes to retrieve, at least 0
     * @return the future of the bytes the kernel sends
     * @throws IllegalArgumentException if {@code offset} or {@code size} is negative
     * @throws IOException if the kernel refused the notification
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
     * @throws IOException if the kernel refused the notification
     */
    void incrementEpoch() throws IOException;
}
