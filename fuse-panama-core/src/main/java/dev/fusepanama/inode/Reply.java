package dev.fusepanama.inode;

/**
 * The answer to one request, sent once. Every kind of reply can answer with an error; each
 * sub-interface adds the successful answers its operations take, so a wrong kind of answer
 * does not compile.
 *
 * <p>A reply belongs to its request, not to the thread that received it: after {@link #defer()}
 * any thread may send it, once. A second answer throws {@link IllegalStateException}. An answer
 * sent after the mount has ended is dropped (the kernel has already failed the request).
 */
public interface Reply {
    /**
     * Answers with {@code errno}, a positive {@link dev.fusepanama.Errno} constant. Success is
     * the kind's own answer ({@link EmptyReply#ok()} for the operations that answer with nothing
     * else), not {@code error(0)}.
     *
     * @param errno the error, a positive errno
     * @throws IllegalArgumentException if {@code errno} is 0 or negative
     * @throws IllegalStateException if this request was already answered
     */
    void error(int errno);

    /**
     * Lets the method return without answering: the answer is sent later, from any thread.
     * Without this, a method that returns unanswered is answered with EIO and logged. Views the
     * reply hands out ({@code attributes()}, {@code statvfs()}) move to memory of the reply's
     * own, so call them again after deferring. The request's {@link Request} and {@link Name}
     * arguments stay valid only until the method returns: copy what the answer needs.
     *
     * @return this reply
     * @throws IllegalStateException if the request was already answered or deferred, or if this
     *     mount cannot defer: requests over io_uring with libfuse 3.18 or older, which must be
     *     answered on the thread that received them ({@link dev.fusepanama.MountOptions.Builder#ioUring})
     */
    Reply defer();

    /**
     * Whether this request has been answered (by this object or because the mount ended).
     *
     * @return true once answered
     */
    boolean isAnswered();
}
