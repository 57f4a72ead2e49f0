package dev.fusepanama.inode;

/** A count of bytes written: the answer of write and copy_file_range. */
public interface WriteReply extends Reply {
    /**
     * Answers with the count of bytes written (or copied).
     *
     * @param count the bytes written, at least 0; fewer than asked tells the caller of a short write
     * @throws IllegalArgumentException if {@code count} is negative (answer {@code error(errno)} instead)
     * @throws IllegalStateException if this request was already answered
     */
    void written(long count);
}
