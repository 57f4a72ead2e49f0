package dev.fusepanama.examples.mirror;

import dev.fusepanama.ConnectionInfo;
import dev.fusepanama.inode.Request;
import dev.fusepanama.libc.Libc;
import dev.fusepanama.libc.Scratch;
import dev.fusepanama.libc.ThreadContext;

/**
 * What a file the mirror makes for a caller takes from it, for {@link NameChanges} and
 * {@link OpenFiles#create}: the caller's umask, where the kernel leaves it to the mirror, and the
 * caller's ownership, where the mirror runs as root.
 */
final class Callers {
    private final boolean root = Libc.geteuid() == 0;
    /**
     * Whether the kernel applies POSIX ACLs (FUSE_POSIX_ACL, which {@link InodeMirror#mountOptions}
     * asks for) and leaves the caller's umask to the filesystem (FUSE_DONT_MASK, also asked for): it
     * checks permissions by the source's ACLs then, and the source's filesystem applies the umask
     * as for any program, except where the parent directory has a default ACL, which decides instead.
     */
    private volatile boolean acls;

    /** What the mount got, from {@link InodeMirror#init}. */
    void init(ConnectionInfo connection) {
        acls = connection.wants(ConnectionInfo.CAP_POSIX_ACL) && connection.wants(ConnectionInfo.CAP_DONT_MASK);
    }

    /** Before making a file: the caller's umask on this worker thread, where the kernel left it to the mirror. */
    void takeUmask(Request request) {
        if (acls) ThreadContext.umask(request.umask());
    }

    /** After making a file: the worker's umask of 0 again (see {@link Scratch}). */
    void dropUmask() {
        if (acls) ThreadContext.umask(0);
    }

    /**
     * When the mirror runs as root for another user, a new file must belong to its creator: it
     * is made with the caller's fsgid (so a set-group-ID directory still passes its group on, as
     * the source's filesystem decides) and given to the caller's uid after, through a descriptor
     * of what was made.
     *
     * @return the uid to give the new file to, or -1 when nothing is to be done
     */
    int enterCaller(Request request) {
        if (!root || request.uid() == 0 && request.gid() == 0) {
            return -1;
        }
        ThreadContext.setfsgid(request.gid());
        return request.uid();
    }

    static void leaveCaller(int caller) {
        if (caller >= 0) {
            ThreadContext.setfsgid(0);
        }
    }
}
