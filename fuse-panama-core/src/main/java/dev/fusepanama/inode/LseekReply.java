package dev.fusepanama.inode;

/** The answer of lseek with SEEK_DATA or SEEK_HOLE. */
public interface LseekReply extends Reply {
    void offset(long offset);
}
