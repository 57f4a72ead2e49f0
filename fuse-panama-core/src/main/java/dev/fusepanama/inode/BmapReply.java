package dev.fusepanama.inode;

/** The answer of bmap: the device block that holds a file's block. */
public interface BmapReply extends Reply {
    void block(long block);
}
