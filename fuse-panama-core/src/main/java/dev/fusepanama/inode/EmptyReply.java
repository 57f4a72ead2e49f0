package dev.fusepanama.inode;

/** The answer of operations whose success carries nothing (unlink, rename, setxattr, release, fsync, ...). */
public interface EmptyReply extends Reply {
    /**
     * Answers success.
     *
     * @throws IllegalStateException if this request was already answered
     */
    void ok();
}
