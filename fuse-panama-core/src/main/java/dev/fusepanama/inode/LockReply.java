package dev.fusepanama.inode;

import dev.fusepanama.Flock;

/** The answer of getlk: the lock that conflicts with the one asked about, or F_UNLCK. */
public interface LockReply extends Reply {
    /** Sends {@code lock} (for instance the request's own, with its type set to F_UNLCK). */
    void lock(Flock lock);
}
