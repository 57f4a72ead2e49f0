package dev.fusepanama.inode;

/** A symbolic link's target: the answer of readlink. */
public interface ReadlinkReply extends Reply {
    /**
     * Sends the target, bytes as stored (not NUL-terminated, any bytes but NUL).
     *
     * @param target the link's target, at most 4095 bytes
     * @throws IllegalArgumentException if {@code target} is longer than 4095 bytes
     * @throws IllegalStateException if this request was already answered
     */
    void target(byte[] target);
}
