package dev.fusepanama;

/** A view of a {@code struct flock} (fcntl(2) record lock). */
public interface Flock {
    /** {@link Posix#F_RDLCK}, F_WRLCK or F_UNLCK. */
    short type();
    Flock setType(short type);
    /** SEEK_SET, SEEK_CUR or SEEK_END. */
    short whence();
    Flock setWhence(short whence);
    long start();
    Flock setStart(long start);
    /** 0 means "to the end of the file". */
    long length();
    Flock setLength(long length);
    int pid();
    Flock setPid(int pid);
}
