package dev.fusepanama.inode;

/**
 * The answer of getxattr and listxattr. Asked with size 0, the caller wants only the size the
 * value needs ({@link #size}); otherwise the value itself ({@link #data}), or ERANGE if it does
 * not fit in the size asked for.
 */
public interface XattrReply extends DataReply {
    void size(long size);
}
