package dev.fusepanama.inode;

/** The answer of bmap: the device block that holds a file's block. */
public interface BmapReply extends Reply {
    /**
     * Answers with the device block that holds the file's block asked about.
     *
     * @param block the block's number on the device, in units of the request's block size
     * @throws IllegalStateException if this request was already answered
     */
    void block(long block);
}
