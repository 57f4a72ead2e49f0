package dev.fusepanama.inode;

/**
 * The answer of getxattr and listxattr. Asked with size 0, the caller wants only the size the
 * value needs ({@link #size}); otherwise the value itself ({@link #data}), or ERANGE if it does
 * not fit in the size asked for.
 */
public interface XattrReply extends DataReply {
    /**
     * Answers a request asked with size 0: the bytes the value (or, for listxattr, the list of
     * names, each followed by a NUL) needs.
     *
     * @param size the size in bytes
     * @throws IllegalStateException if this request was already answered
     */
    void size(long size);
}
