package dev.fusepanama.inode;

/** A count of bytes written: the answer of write and copy_file_range. */
public interface WriteReply extends Reply {
    void written(long count);
}
