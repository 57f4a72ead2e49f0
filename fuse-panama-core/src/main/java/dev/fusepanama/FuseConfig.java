package dev.fusepanama;

/**
 * A view of libfuse's {@code struct fuse_config} during {@link FuseFileSystem#init}. Timeouts are
 * seconds the kernel may cache names ({@code entry}), missing names ({@code negative}) and
 * attributes ({@code attr}); 0 disables that cache.
 */
public interface FuseConfig {
    double entryTimeout();
    FuseConfig setEntryTimeout(double seconds);
    double negativeTimeout();
    FuseConfig setNegativeTimeout(double seconds);
    double attrTimeout();
    FuseConfig setAttrTimeout(double seconds);

    /** Report the filesystem's st_ino to the kernel instead of libfuse's own numbers. */
    boolean useIno();
    FuseConfig setUseIno(boolean on);
    boolean readdirIno();
    FuseConfig setReaddirIno(boolean on);
    /**
     * Unlink files at once even while open, instead of renaming them to {@code .fuse_hidden*}.
     * Operations on such files then arrive with a null path: use the file handle.
     */
    boolean hardRemove();
    FuseConfig setHardRemove(boolean on);
    /** Accept operations on open files without computing their path (paths may be null). */
    boolean nullPathOk();
    FuseConfig setNullPathOk(boolean on);
    boolean directIo();
    FuseConfig setDirectIo(boolean on);
    /** Keep the page cache across opens: only for data that never changes behind the kernel's back. */
    boolean kernelCache();
    FuseConfig setKernelCache(boolean on);
    /** Keep the page cache across opens while mtime and size are unchanged. */
    boolean autoCache();
    FuseConfig setAutoCache(boolean on);
    /** Deliver interrupts to operations (see {@link FuseContext#interrupted()}). */
    boolean interrupts();
    FuseConfig setInterrupts(boolean on);

    /** Override every file's owner with {@code uid} (the {@code uid=} option). */
    FuseConfig setUid(int uid);
    FuseConfig setGid(int gid);
    /** Override every file's permissions with {@code ~umask} (the {@code umask=} option). */
    FuseConfig setUmask(int umask);
}
