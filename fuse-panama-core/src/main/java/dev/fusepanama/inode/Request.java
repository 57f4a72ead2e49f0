package dev.fusepanama.inode;

/** Who asked: valid until the request is answered. */
public interface Request {
    int uid();

    int gid();

    int pid();

    /** The caller's umask, already applied by the kernel to the modes it sends. */
    int umask();

    /** Whether the caller has given up on the request (a signal interrupted its system call). */
    boolean interrupted();
}
