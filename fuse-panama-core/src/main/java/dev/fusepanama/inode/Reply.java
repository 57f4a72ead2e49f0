package dev.fusepanama.inode;

/**
 * The answer to one request, sent once. Every kind of reply can answer with an error; each
 * sub-interface adds the one successful answer its operation takes.
 */
public interface Reply {
    /**
     * Answers with {@code errno} (a positive {@link dev.fusepanama.Errno} constant).
     *
     * @throws IllegalStateException if this request was already answered
     */
    void error(int errno);

    /**
     * Lets the method return without replying: the reply is sent later, from any thread. Without
     * this, a method that returns unanswered is answered with EIO.
     *
     * @return this reply
     */
    Reply defer();
}
