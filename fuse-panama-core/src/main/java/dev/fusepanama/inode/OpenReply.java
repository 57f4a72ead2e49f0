package dev.fusepanama.inode;

/** An open file or directory: the answer of open and opendir. */
public interface OpenReply extends Reply {
    /** Bypass the page cache for this open file: every read and write reaches the filesystem. */
    int DIRECT_IO = 1;
    /** Keep the data the kernel cached from earlier opens (the file did not change since). */
    int KEEP_CACHE = 1 << 1;
    /** The file is not seekable (a stream). */
    int NONSEEKABLE = 1 << 2;
    /** For opendir: keep the kernel's cached listing of the directory (needs the readdir cache capability). */
    int CACHE_DIR = 1 << 3;
    /**
     * No flush at each close(2) of this open file (FOPEN_NOFLUSH: kernel 5.16, libfuse 3.11): for
     * an open that cannot have written anything, a round trip saved per close. Ignored on libfuse
     * 3.10, which has no such field, and by the kernel under the writeback cache.
     */
    int NO_FLUSH = 1 << 4;

    /**
     * Sends the handle.
     *
     * @param fh comes back with every later operation on this open file
     * @param flags {@link #DIRECT_IO}, {@link #KEEP_CACHE}, {@link #NONSEEKABLE}, {@link #CACHE_DIR},
     *        {@link #NO_FLUSH}, or 0
     * @return false if the caller no longer waits (its system call was interrupted) or the mount
     *         has ended: the kernel did not take the answer, so undo what it would have counted
     *         (libfuse's own path layer forgets the lookup, or releases the handle, in that case)
     */
    boolean open(long fh, int flags);

    /**
     * Before {@link #open}: asks that the kernel read, write and map this open file from
     * {@code fd} (a regular file) itself, without requests to the filesystem (kernel passthrough,
     * {@link dev.fusepanama.MountOptions.Builder#passthrough}). Returns false, changing nothing,
     * where this mount cannot pass files through (see {@link dev.fusepanama.Mount#describe()});
     * the filesystem then serves read and write as usual. The library registers {@code fd} once
     * per inode while the inode has files open and closes the registration with the last of them
     * (the kernel allows one backing file per inode while it is open, so later opens of the inode
     * use the first one's); keep {@code fd} open until release. {@link #KEEP_CACHE} and
     * {@link #NONSEEKABLE} are ignored beside it (the kernel would fail the open).
     *
     * @param fd an open descriptor of the backing regular file, kept open until release
     * @return true if the open is to be passed through; false, changing nothing, where this mount
     *     cannot pass files through, and for an opendir
     */
    boolean passthrough(int fd);
}
