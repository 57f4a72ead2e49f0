package dev.fusepanama;

/** A view of a {@code struct flock} (fcntl(2) record lock). */
public interface Flock {
    /**
     * The lock's type, {@code l_type}.
     *
     * @return {@link Posix#F_RDLCK}, F_WRLCK or F_UNLCK
     */
    short type();

    /**
     * Sets {@code l_type}.
     *
     * @param type {@link Posix#F_RDLCK}, F_WRLCK or F_UNLCK
     * @return this view
     */
    Flock setType(short type);

    /**
     * Where {@link #start()} counts from, {@code l_whence}.
     *
     * @return SEEK_SET, SEEK_CUR or SEEK_END
     */
    short whence();

    /**
     * Sets {@code l_whence}.
     *
     * @param whence SEEK_SET, SEEK_CUR or SEEK_END
     * @return this view
     */
    Flock setWhence(short whence);

    /**
     * The first byte locked, {@code l_start}, relative to {@link #whence()}.
     *
     * @return the offset in bytes
     */
    long start();

    /**
     * Sets {@code l_start}.
     *
     * @param start the offset in bytes, relative to {@link #whence()}
     * @return this view
     */
    Flock setStart(long start);

    /**
     * How many bytes are locked, {@code l_len}; 0 means "to the end of the file".
     *
     * @return the length in bytes
     */
    long length();

    /**
     * Sets {@code l_len}.
     *
     * @param length the length in bytes, 0 for "to the end of the file"
     * @return this view
     */
    Flock setLength(long length);

    /**
     * The process that holds the lock, {@code l_pid}, in a getlk answer.
     *
     * @return the process id
     */
    int pid();

    /**
     * Sets {@code l_pid}.
     *
     * @param pid the id of the process that holds the conflicting lock
     * @return this view
     */
    Flock setPid(int pid);
}
