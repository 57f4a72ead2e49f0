package dev.fusepanama;

/**
 * The settings of libfuse's path layer in effect for a mount ({@code struct fuse_config}), read
 * during {@link FuseFileSystem#init}. They are set through the filesystem's
 * {@link KernelSettings} (timeouts, page cache at open), {@link PathOptions} (unlinked files,
 * paths, inode numbers) and {@link MountOptions} (interrupts, with
 * {@link MountOptions.Builder#option} for the few without a typed setting: {@code uid=},
 * {@code gid=}, {@code umask=}), all applied before {@code init} runs. Timeouts are seconds the
 * kernel may cache names ({@code entry}), missing names ({@code negative}) and attributes
 * ({@code attr}); 0 disables that cache.
 */
public interface FuseConfig {
    /** {@return seconds the kernel trusts a name it looked up} ({@link KernelSettings.Builder#entryTimeout}) */
    double entryTimeout();

    /** {@return seconds the kernel remembers that a name is absent, 0 for not at all} ({@link KernelSettings.Builder#negativeEntries}) */
    double negativeTimeout();

    /** {@return seconds the kernel trusts a file's attributes} ({@link KernelSettings.Builder#attrTimeout}) */
    double attrTimeout();

    /**
     * {@return whether the filesystem's {@code st_ino} is reported to the kernel instead of
     * libfuse's own numbers} ({@link PathOptions.Builder#useIno})
     */
    boolean useIno();

    /**
     * {@return whether, without {@link #useIno}, listings report the filesystem's inode numbers}
     * ({@link PathOptions.Builder#readdirIno})
     */
    boolean readdirIno();

    /**
     * {@return whether files are unlinked at once even while open, instead of renamed to
     * {@code .fuse_hidden*}} Operations on such files then arrive with a null path: use the file
     * handle ({@link PathOptions.Builder#hardRemove}).
     */
    boolean hardRemove();

    /** {@return whether operations on open files may arrive without their path (null)} ({@link PathOptions.Builder#nullPathOk}) */
    boolean nullPathOk();

    /** {@return whether every file bypasses the page cache} ({@link KernelSettings.Builder#directIo}) */
    boolean directIo();

    /**
     * {@return whether the page cache is kept across opens} Only for data that never changes
     * behind the kernel's back ({@link KernelSettings.Builder#keepCache}).
     */
    boolean kernelCache();

    /** {@return whether the page cache is kept across opens while mtime and size are unchanged} ({@link KernelSettings.Builder#autoCache}) */
    boolean autoCache();

    /**
     * {@return whether libfuse's {@code intr} is on}: set by {@link MountOptions.Builder#interrupts}
     * on libfuse 3.17+, where the kernel sends interrupts only then. Before 3.17 it stays off,
     * and interrupts reach {@link FuseContext#interrupted()} either way.
     */
    boolean interrupts();
}
