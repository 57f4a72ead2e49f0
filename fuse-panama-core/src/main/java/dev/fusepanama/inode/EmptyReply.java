package dev.fusepanama.inode;

/** The answer of operations whose success carries nothing (unlink, rename, release, fsync, ...). */
public interface EmptyReply extends Reply {
    void ok();
}
