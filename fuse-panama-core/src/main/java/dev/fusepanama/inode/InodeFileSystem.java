package dev.fusepanama.inode;

import dev.fusepanama.ConnectionInfo;
import dev.fusepanama.Errno;
import java.io.IOException;

/**
 * What an inode-based filesystem implements (see the package documentation). Only the methods
 * a filesystem overrides are registered with libfuse; the kernel gets ENOSYS for the rest and
 * stops asking. Methods are called on libfuse's worker threads, several at a time.
 *
 * <p>First slice of issue 19 (work in progress): the read-only operations.
 */
public interface InodeFileSystem {
    /** The root directory's inode number. */
    long ROOT = 1;

    /** The session is set up; {@code connection} shows what the kernel and libfuse agreed on. */
    default void init(ConnectionInfo connection) throws IOException {}

    /** The session ends; called once, after the last operation. */
    default void destroy() throws IOException {}

    /** The inode of {@code name} in directory {@code parent}. */
    default void lookup(Request request, long parent, Name name, EntryReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /**
     * The kernel drops {@code lookups} of the inode's lookup count; at zero, it will not use the
     * number again until a reply names it anew. No reply.
     */
    default void forget(long ino, long lookups) {}

    /** The inode's attributes; {@code fh} is the open file's handle for fstat, else 0. */
    default void getattr(Request request, long ino, long fh, AttrReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /** Opens a file; {@code flags} are open(2)'s (without O_CREAT, O_EXCL and O_NOCTTY). */
    default void open(Request request, long ino, int flags, OpenReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /** Up to {@code size} bytes at {@code offset} of the open file {@code fh}. */
    default void read(Request request, long ino, long fh, long size, long offset, DataReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /** The last reference to the open file {@code fh} is gone; the kernel ignores the answer's errno. */
    default void release(Request request, long ino, long fh, int flags, EmptyReply reply) throws IOException {
        reply.ok();
    }

    default void opendir(Request request, long ino, int flags, OpenReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /**
     * A batch of entries of the open directory {@code fh}, starting after {@code offset} (0: from
     * the start), in a reply buffer of {@code size} bytes.
     */
    default void readdir(Request request, long ino, long fh, long size, long offset, DirReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    default void releasedir(Request request, long ino, long fh, EmptyReply reply) throws IOException {
        reply.ok();
    }

    default void statfs(Request request, long ino, StatfsReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }
}
