package dev.fusepanama.inode;

/** The answer of poll: the events ready now ({@link dev.fusepanama.Posix#POLLIN}, ...), 0 for none. */
public interface PollReply extends Reply {
    /**
     * Answers with the events ready now.
     *
     * @param revents POLL* bits ({@link dev.fusepanama.Posix#POLLIN}, {@link dev.fusepanama.Posix#POLLOUT}, ...),
     *     0 for none
     * @throws IllegalStateException if this request was already answered
     */
    void events(int revents);
}
