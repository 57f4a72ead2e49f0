package dev.fusepanama.inode;

/** The answer of lseek with SEEK_DATA or SEEK_HOLE. */
public interface LseekReply extends Reply {
    /**
     * Answers with the offset found: the start of the next data (SEEK_DATA) or of the next hole
     * (SEEK_HOLE) at or after the offset asked about. With none, answer {@code error(ENXIO)}.
     *
     * @param offset the offset in bytes from the start of the file
     * @throws IllegalStateException if this request was already answered
     */
    void offset(long offset);
}
