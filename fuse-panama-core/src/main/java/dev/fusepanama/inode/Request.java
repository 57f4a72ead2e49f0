package dev.fusepanama.inode;

import dev.fusepanama.AccessTimes;
import dev.fusepanama.FuseContext;

/**
 * Who asked: the caller of an inode request, with what {@link FuseContext} tells on the path API
 * (the same answers, read the same way). A view reused for the thread's next request: valid only
 * during the call that receives it; copy what a deferred answer needs.
 */
public interface Request extends FuseContext {
    /**
     * Whether the caller may write to, truncate or chown a file and keep its set-ID bits: it has
     * CAP_FSETID in this process's user namespace (read from {@code /proc}: costs a file read, so
     * ask only for a file that has such bits; false when the caller is gone or in another user
     * namespace). The rule of {@link dev.fusepanama.KernelSettings.Builder#handleKillprivV2}.
     *
     * @return whether the caller may keep a file's set-ID bits
     */
    boolean mayKeepSetId();

    /**
     * The mount's rule for access times now: its {@code noatime}, {@code relatime},
     * {@code strictatime}, {@code nodiratime} and {@code ro} flags, which the kernel applies to its
     * own filesystems but leaves to a FUSE filesystem that keeps access times. Follows remounts:
     * a request sent after a remount returned sees its flags. Each call polls
     * {@code /proc/self/mountinfo} without waiting (about a microsecond) and reads it again after
     * a change. A Request made outside a mount (a test's) answers the kernel's default, relatime.
     *
     * @return the mount's access-time rule
     */
    default AccessTimes accessTimes() {
        return AccessTimes.DEFAULT;
    }

    /**
     * Whether this is a {@code write} or {@code writeBuf} of pages the kernel cached
     * ({@link dev.fusepanama.KernelSettings.Builder#writebackCache}), sent when it flushes them, not when a process
     * wrote them: its caller is whoever flushed (a kernel thread, or a process that called fsync
     * or close). The kernel has moved the file's times itself, and sends them with a setattr. A
     * write that had to clear set-ID bits never comes this way: with
     * {@link dev.fusepanama.KernelSettings.Builder#handleKillprivV2} the kernel sends it at once, uncached, from
     * its writer; without, the kernel applied its own FUSE rule with a setattr of the mode before
     * caching it ({@code S_ISUID}, and {@code S_ISGID} beside group-execute). False
     * for every other request.
     *
     * @return whether this write flushes the kernel's page cache
     */
    default boolean fromPageCache() {
        return false;
    }

    /**
     * The mount this request came through, for the notifications a filesystem sends after it
     * answered (never from inside the request: see {@link InodeMount}).
     *
     * @return the mount the request came through
     * @throws UnsupportedOperationException for a Request made outside a mount (a test's)
     */
    default InodeMount mount() {
        throw new UnsupportedOperationException("this request came through no mount");
    }
}
