package dev.fusepanama.vault;

import dev.fusepanama.libc.Libc;

/**
 * An open regular file or directory: the ciphertext file's descriptor (read-write for a file
 * where allowed). The kernel uses a handle until its release; another request may borrow it
 * (to reach a file whose names are gone), so the descriptor is closed when the last of them
 * lets go, never while a borrower still uses it.
 */
final class OpenFile {
    final Node node;
    final int fd;
    /**
     * A directory's listing, read at opendir and again at each later read from offset 0
     * (rewinddir), so that offsets stay stable for one pass and a rewind sees what changed.
     * Readdirs of one open directory are serialized by the kernel.
     */
    volatile Listing listing;
    /** Whether the listing was read from offset 0 since it was made. */
    volatile boolean listedFromStart;
    private int users = 1;
    private boolean released;

    OpenFile(Node node, int fd, Listing listing) {
        this.node = node;
        this.fd = fd;
        this.listing = listing;
    }

    /** Borrows the descriptor; false if the handle is already released. Give it back with {@link #letGo}. */
    synchronized boolean borrow() {
        if (released) return false;
        users++;
        return true;
    }

    void letGo() {
        boolean last;
        synchronized (this) {
            last = --users == 0;
        }
        if (last) Libc.close(fd);
    }

    /** The kernel released the handle: the descriptor closes once no borrower holds it. */
    void release() {
        synchronized (this) {
            if (released) return;
            released = true;
        }
        letGo();
    }
}
