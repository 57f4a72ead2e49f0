package dev.fusepanama.libc;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * What a thread changes about its own context: its mount namespace ({@code unshare(2)}, {@code
 * mount(2)}, {@code umount2(2)}), its file creation mask, its filesystem group. Bound and called
 * as {@link Libc}'s are: a call that can fail returns the C result, or {@code -errno} captured on
 * the calling thread.
 */
public final class ThreadContext {
    private ThreadContext() {}

    private static final MethodHandle UNSHARE = Libc.bind("unshare", Libc.i(JAVA_INT), Libc.CAPTURE);
    private static final MethodHandle UMOUNT2 = Libc.bind("umount2", Libc.i(ADDRESS, JAVA_INT), Libc.CAPTURE);
    private static final MethodHandle MOUNT = Libc.bind("mount", Libc.i(ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS), Libc.CAPTURE);
    private static final MethodHandle UMASK = Libc.bind("umask", Libc.i(JAVA_INT));
    private static final MethodHandle SETFSGID = Libc.bind("setfsgid", Libc.i(JAVA_INT));

    /** unshare(2): a private filesystem context (root, working directory, umask) for the thread. */
    public static final int CLONE_FS = 0x200;

    /** unshare(2): a mount namespace of the thread's own (implies {@link #CLONE_FS}). */
    public static final int CLONE_NEWNS = 0x00020000;

    /** umount2(2): detach now, finish when no longer busy. */
    public static final int MNT_DETACH = 2;

    /** mount(2): apply to the whole subtree of mounts, not the one only. */
    public static final long MS_REC = 16384;

    /** mount(2): make the mount private: mounts and unmounts under it propagate to no other namespace and from none. */
    public static final long MS_PRIVATE = 1L << 18;

    /**
     * {@code unshare(2)}: gives the calling thread its own copy of what {@code flags} names.
     *
     * @param flags {@link #CLONE_FS}, {@link #CLONE_NEWNS}, ...
     * @return 0, or -errno (-EPERM for {@link #CLONE_NEWNS} without CAP_SYS_ADMIN, or under a seccomp filter)
     */
    public static int unshare(int flags) {
        MemorySegment errno = Libc.THREAD_ERRNO.get();
        try { return Libc.r((int) UNSHARE.invokeExact(errno, flags), errno); } catch (Throwable t) { throw Libc.broken(t); }
    }

    /**
     * {@code umount2(2)}.
     *
     * @param path the NUL-terminated mount point
     * @param flags {@link #MNT_DETACH} or 0
     * @return 0, or -errno (-EBUSY for a mount in use without {@link #MNT_DETACH}, -EPERM unprivileged)
     */
    public static int umount2(MemorySegment path, int flags) {
        MemorySegment errno = Libc.THREAD_ERRNO.get();
        try { return Libc.r((int) UMOUNT2.invokeExact(errno, path, flags), errno); } catch (Throwable t) { throw Libc.broken(t); }
    }

    /**
     * {@code mount(2)}.
     *
     * @param source the NUL-terminated source, or {@link MemorySegment#NULL}
     * @param target the NUL-terminated mount point
     * @param type the NUL-terminated filesystem type, or {@link MemorySegment#NULL}
     * @param flags the {@code MS_*} flags, such as {@link #MS_REC} | {@link #MS_PRIVATE}
     * @param data the filesystem's NUL-terminated options, or {@link MemorySegment#NULL}
     * @return 0, or -errno
     */
    public static int mount(MemorySegment source, MemorySegment target, MemorySegment type, long flags, MemorySegment data) {
        MemorySegment errno = Libc.THREAD_ERRNO.get();
        try { return Libc.r((int) MOUNT.invokeExact(errno, source, target, type, flags, data), errno); } catch (Throwable t) { throw Libc.broken(t); }
    }

    /**
     * Gives the calling thread a filesystem context of its own ({@code unshare(CLONE_FS)}: root,
     * working directory, umask) and sets its umask to {@code mask} there, leaving the process's
     * other threads as they were. A filesystem's worker does it once with 0: the kernel has already
     * applied the caller's umask to every mode it sends, and a second mask would take bits away.
     *
     * @param mask the thread's new umask
     * @return 0, or -errno of the unshare (the umask is then left as it was)
     */
    public static int threadUmask(int mask) {
        int rc = unshare(CLONE_FS);
        if (rc == 0) {
            umask(mask);
        }
        return rc;
    }

    /**
     * {@code umask(2)}: sets the mask of the calling thread's filesystem context (the process's,
     * unless {@link #threadUmask} gave the thread its own); cannot fail.
     *
     * @param mask the new mask
     * @return the previous mask
     */
    public static int umask(int mask) {
        try { return (int) UMASK.invokeExact(mask); } catch (Throwable t) { throw Libc.broken(t); }
    }

    /**
     * {@code setfsgid(2)}: the group the calling thread (only it, on Linux) accesses files as.
     *
     * @param gid the new group; one the thread may not take leaves it as it was
     * @return the previous group, whether or not it changed
     */
    public static int setfsgid(int gid) {
        try { return (int) SETFSGID.invokeExact(gid); } catch (Throwable t) { throw Libc.broken(t); }
    }
}
