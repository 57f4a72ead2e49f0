package dev.fusepanama.inode;

/** The answer of poll: the events ready now ({@link dev.fusepanama.Posix#POLLIN}, ...), 0 for none. */
public interface PollReply extends Reply {
    void events(int revents);
}
