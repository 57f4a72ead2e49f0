package dev.fusepanama.inode;

/** An open file or directory: the answer of open and opendir. */
public interface OpenReply extends Reply {
    /**
     * Sends the handle; {@code fh} comes back with every later operation on this open file.
     *
     * @param keepCache keep the kernel's cached data of the file from earlier opens
     * @param directIo bypass the page cache for this open file
     */
    void open(long fh, boolean keepCache, boolean directIo);
}
