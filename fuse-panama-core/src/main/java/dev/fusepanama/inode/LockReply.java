package dev.fusepanama.inode;

import dev.fusepanama.Flock;

/** The answer of getlk: the lock that conflicts with the one asked about, or F_UNLCK. */
public interface LockReply extends Reply {
    /**
     * Sends {@code lock} (for instance the request's own, with its type set to F_UNLCK).
     *
     * @param lock the conflicting lock, or one of type F_UNLCK if none conflicts; copied before this returns
     * @throws IllegalStateException if this request was already answered
     */
    void lock(Flock lock);
}
