package dev.fusepanama.inode;

/** A symbolic link's target: the answer of readlink. */
public interface ReadlinkReply extends Reply {
    /** Sends the target, bytes as stored (not NUL-terminated, any bytes but NUL). */
    void target(byte[] target);
}
