package dev.fusepanama;

/**
 * The settings of libfuse's path layer in effect for a mount ({@code struct fuse_config}), read
 * during {@link FuseFileSystem#init}. They are set through {@link PathOptions} (timeouts, page
 * cache, unlinked files) and {@link MountOptions} (the rest, with
 * {@link MountOptions.Builder#option} for the few without a typed setting: {@code uid=},
 * {@code gid=}, {@code umask=}). Timeouts are seconds the kernel may
 * cache names ({@code entry}), missing names ({@code negative}) and attributes ({@code attr});
 * 0 disables that cache.
 */
public interface FuseConfig {
    double entryTimeout();
    double negativeTimeout();
    double attrTimeout();
    /** The filesystem's st_ino is reported to the kernel instead of libfuse's own numbers. */
    boolean useIno();
    boolean readdirIno();
    /**
     * Files are unlinked at once even while open, instead of renamed to {@code .fuse_hidden*}.
     * Operations on such files then arrive with a null path: use the file handle.
     */
    boolean hardRemove();
    /** Operations on open files may arrive without their path (null). */
    boolean nullPathOk();
    boolean directIo();
    /** The page cache is kept across opens: only for data that never changes behind the kernel's back. */
    boolean kernelCache();
    /** The page cache is kept across opens while mtime and size are unchanged. */
    boolean autoCache();
    /** Interrupts are delivered to operations (see {@link FuseContext#interrupted()}). */
    boolean interrupts();
}
