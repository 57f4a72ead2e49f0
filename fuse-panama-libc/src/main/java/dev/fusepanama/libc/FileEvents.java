package dev.fusepanama.libc;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * The kernel's file change notifications: inotify(7), fanotify(7), and eventfd(2) to wake a
 * thread that waits for them. Bound and called as {@link Libc}'s are: a call that can fail
 * returns the C result, or {@code -errno} captured on the calling thread.
 */
public final class FileEvents {
    private FileEvents() {}

    private static final MethodHandle INOTIFY_INIT1 = Libc.bind("inotify_init1", Libc.i(JAVA_INT), Libc.CAPTURE);
    private static final MethodHandle INOTIFY_ADD_WATCH = Libc.bind("inotify_add_watch", Libc.i(JAVA_INT, ADDRESS, JAVA_INT), Libc.CAPTURE);
    private static final MethodHandle INOTIFY_RM_WATCH = Libc.bind("inotify_rm_watch", Libc.i(JAVA_INT, JAVA_INT), Libc.CAPTURE);
    private static final MethodHandle FANOTIFY_INIT = Libc.bind("fanotify_init", Libc.i(JAVA_INT, JAVA_INT), Libc.CAPTURE);
    private static final MethodHandle FANOTIFY_MARK = Libc.bind("fanotify_mark", Libc.i(JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_INT, ADDRESS), Libc.CAPTURE);
    private static final MethodHandle EVENTFD = Libc.bind("eventfd", Libc.i(JAVA_INT, JAVA_INT), Libc.CAPTURE);

    // inotify(7) flags and event bits (linux/inotify.h).
    /** {@link #inotifyInit1}: a read that finds no event ready returns -EAGAIN instead of waiting. */
    public static final int IN_NONBLOCK = 04000;
    /** {@link #inotifyInit1}: the descriptor is closed on {@code execve(2)}. */
    public static final int IN_CLOEXEC = 02000000;
    /** A file was written to. */
    public static final int IN_MODIFY = 0x2;
    /** Metadata changed: permissions, times, owner, link count, extended attributes. */
    public static final int IN_ATTRIB = 0x4;
    /** A file opened for writing was closed. */
    public static final int IN_CLOSE_WRITE = 0x8;
    /** A name was moved out of the watched directory; the matching {@link #IN_MOVED_TO} has the same cookie. */
    public static final int IN_MOVED_FROM = 0x40;
    /** A name was moved into the watched directory. */
    public static final int IN_MOVED_TO = 0x80;
    /** A name was created in the watched directory. */
    public static final int IN_CREATE = 0x100;
    /** A name was deleted from the watched directory. */
    public static final int IN_DELETE = 0x200;
    /** Events were lost: the queue was full (the event's watch descriptor is -1). */
    public static final int IN_Q_OVERFLOW = 0x4000;
    /** The watch is gone: removed with {@link #inotifyRmWatch}, or its inode deleted or unmounted. */
    public static final int IN_IGNORED = 0x8000;
    /** {@link #inotifyAddWatch}: watch the path only if it is a directory (-ENOTDIR otherwise). */
    public static final int IN_ONLYDIR = 0x01000000;
    /** {@link #inotifyAddWatch}: no events for a child after it was unlinked from the watched directory. */
    public static final int IN_EXCL_UNLINK = 0x04000000;
    /** {@code struct inotify_event}: wd, mask, cookie, len (4 x 32 bits), then {@code len} bytes of NUL-padded name. */
    public static final long INOTIFY_EVENT_SIZE = 16;
    // fanotify(7): fanotify_init flags (linux/fanotify.h).
    /** {@link #fanotifyInit}: notification only, no permission events. */
    public static final int FAN_CLASS_NOTIF = 0;
    /** {@link #fanotifyInit}: the descriptor is closed on {@code execve(2)}. */
    public static final int FAN_CLOEXEC = 0x1;
    /** {@link #fanotifyInit}: a read that finds no event ready returns -EAGAIN. */
    public static final int FAN_NONBLOCK = 0x2;
    /** {@link #fanotifyInit}: no limit to the events queued (CAP_SYS_ADMIN). */
    public static final int FAN_UNLIMITED_QUEUE = 0x10;
    /** {@link #fanotifyInit}: events name the object by its file handle, not an open descriptor (Linux 5.1). */
    public static final int FAN_REPORT_FID = 0x200;
    /** {@link #fanotifyInit}: events carry the handle of the directory the entry is in (Linux 5.9). */
    public static final int FAN_REPORT_DIR_FID = 0x400;
    /** {@link #fanotifyInit}, with {@link #FAN_REPORT_DIR_FID}: and the entry's name (Linux 5.9). */
    public static final int FAN_REPORT_NAME = 0x800;
    // fanotify_mark flags.
    /** {@link #fanotifyMark}: add the events of the mask to the mark. */
    public static final int FAN_MARK_ADD = 0x1;
    /** {@link #fanotifyMark}: remove the events of the mask from the mark. */
    public static final int FAN_MARK_REMOVE = 0x2;
    /** {@link #fanotifyMark}: mark a final symbolic link itself. */
    public static final int FAN_MARK_DONT_FOLLOW = 0x4;
    /** {@link #fanotifyMark}: -ENOTDIR unless the path is a directory. */
    public static final int FAN_MARK_ONLYDIR = 0x8;
    /** {@link #fanotifyMark}: mark the inode the path names (the default). */
    public static final int FAN_MARK_INODE = 0;
    /** {@link #fanotifyMark}: mark the whole filesystem the path is on. */
    public static final int FAN_MARK_FILESYSTEM = 0x100;
    // fanotify event bits.
    /** A file was written to. */
    public static final long FAN_MODIFY = 0x2;
    /** Metadata changed (needs {@link #FAN_REPORT_FID}). */
    public static final long FAN_ATTRIB = 0x4;
    /** A file opened for writing was closed. */
    public static final long FAN_CLOSE_WRITE = 0x8;
    /** A name was moved out of a marked directory (needs {@link #FAN_REPORT_FID}). */
    public static final long FAN_MOVED_FROM = 0x40;
    /** A name was moved into a marked directory (needs {@link #FAN_REPORT_FID}). */
    public static final long FAN_MOVED_TO = 0x80;
    /** A name was created in a marked directory (needs {@link #FAN_REPORT_FID}). */
    public static final long FAN_CREATE = 0x100;
    /** A name was deleted from a marked directory (needs {@link #FAN_REPORT_FID}). */
    public static final long FAN_DELETE = 0x200;
    /** The marked file or directory itself was deleted. */
    public static final long FAN_DELETE_SELF = 0x400;
    /** The marked file or directory itself was moved. */
    public static final long FAN_MOVE_SELF = 0x800;
    /** Events were lost: the queue was full. */
    public static final long FAN_Q_OVERFLOW = 0x4000;
    /** The events of a marked directory's children too. */
    public static final long FAN_EVENT_ON_CHILD = 0x08000000;
    /** Events on directories too, not only on files. */
    public static final long FAN_ONDIR = 0x40000000;
    /**
     * {@code sizeof(struct fanotify_event_metadata)}: event_len (u32), vers (u8), reserved (u8),
     * metadata_len (u16), mask (u64), fd (s32), pid (s32).
     */
    public static final long FANOTIFY_METADATA_SIZE = 24;
    /** The {@code vers} of the metadata this layout is: an event of another version is not to be read with it. */
    public static final int FANOTIFY_METADATA_VERSION = 3;
    // Info records after the metadata: struct fanotify_event_info_header (info_type u8, pad u8, len u16).
    /** An info record with the file handle of the object. */
    public static final int FAN_EVENT_INFO_TYPE_FID = 1;
    /** An info record with the file handle of the directory and the entry's name. */
    public static final int FAN_EVENT_INFO_TYPE_DFID_NAME = 2;
    /** An info record with the file handle of the directory. */
    public static final int FAN_EVENT_INFO_TYPE_DFID = 3;
    /**
     * Where the {@code struct file_handle} begins in {@code struct fanotify_event_info_fid}: after
     * the 4-byte header and the 8-byte {@code fsid}; a DFID_NAME record's NUL-terminated name
     * follows the handle.
     */
    public static final long FANOTIFY_INFO_FID_HANDLE = 12;

    /**
     * {@code fanotify_init(2)}: a new fanotify group.
     *
     * @param flags {@code FAN_CLASS_*}, {@code FAN_REPORT_*} and the descriptor's own flags
     *     ({@link #FAN_CLOEXEC}, {@link #FAN_NONBLOCK})
     * @param eventFlags the {@code open(2)} flags of the descriptors events carry, such as
     *     {@code O_RDONLY | O_CLOEXEC} (the events of a {@link #FAN_REPORT_FID} group carry none)
     * @return its descriptor, or -errno: -EPERM unprivileged before Linux 5.13, -EINVAL for flags the kernel lacks
     */
    public static int fanotifyInit(int flags, int eventFlags) {
        MemorySegment errno = Libc.THREAD_ERRNO.get();
        try { return Libc.r((int) FANOTIFY_INIT.invokeExact(errno, flags, eventFlags), errno); } catch (Throwable t) { throw Libc.broken(t); }
    }

    /**
     * {@code fanotify_mark(2)}: adds or removes events of a mark.
     *
     * @param fd the group's descriptor ({@link #fanotifyInit})
     * @param flags {@link #FAN_MARK_ADD} or {@link #FAN_MARK_REMOVE}, with what to mark ({@code FAN_MARK_*})
     * @param mask the event bits ({@code FAN_*})
     * @param dirFd the directory a relative {@code path} is taken from, or {@link Libc#AT_FDCWD}
     * @param path the NUL-terminated path, or {@link MemorySegment#NULL} to mark {@code dirFd} itself
     * @return 0, or -errno
     */
    public static int fanotifyMark(int fd, int flags, long mask, int dirFd, MemorySegment path) {
        MemorySegment errno = Libc.THREAD_ERRNO.get();
        try { return Libc.r((int) FANOTIFY_MARK.invokeExact(errno, fd, flags, mask, dirFd, path), errno); } catch (Throwable t) { throw Libc.broken(t); }
    }

    // eventfd(2) flags.
    /** {@link #eventfd}: the descriptor is closed on {@code execve(2)}. */
    public static final int EFD_CLOEXEC = 02000000;
    /** {@link #eventfd}: a read of a zero counter returns -EAGAIN instead of waiting. */
    public static final int EFD_NONBLOCK = 04000;

    /**
     * {@code inotify_init1(2)}: a new inotify instance.
     *
     * @param flags {@link #IN_NONBLOCK}, {@link #IN_CLOEXEC}, or 0
     * @return its descriptor, or -errno (-EMFILE past {@code fs.inotify.max_user_instances})
     */
    public static int inotifyInit1(int flags) {
        MemorySegment errno = Libc.THREAD_ERRNO.get();
        try { return Libc.r((int) INOTIFY_INIT1.invokeExact(errno, flags), errno); } catch (Throwable t) { throw Libc.broken(t); }
    }

    /**
     * {@code inotify_add_watch(2)}: watches {@code path} for the events of {@code mask}.
     *
     * @param fd the instance's descriptor ({@link #inotifyInit1})
     * @param path the NUL-terminated path
     * @param mask the event bits ({@code IN_*}) and watch flags such as {@link #IN_ONLYDIR}
     * @return the watch descriptor, the same one again for an inode already watched (whose mask
     *     this one replaces), or -errno (-ENOSPC past {@code fs.inotify.max_user_watches})
     */
    public static int inotifyAddWatch(int fd, MemorySegment path, int mask) {
        MemorySegment errno = Libc.THREAD_ERRNO.get();
        try { return Libc.r((int) INOTIFY_ADD_WATCH.invokeExact(errno, fd, path, mask), errno); } catch (Throwable t) { throw Libc.broken(t); }
    }

    /**
     * {@code inotify_rm_watch(2)}: ends a watch; an {@link #IN_IGNORED} event follows.
     *
     * @param fd the instance's descriptor
     * @param wd the watch descriptor {@link #inotifyAddWatch} returned
     * @return 0, or -errno (-EINVAL for a watch that is gone already)
     */
    public static int inotifyRmWatch(int fd, int wd) {
        MemorySegment errno = Libc.THREAD_ERRNO.get();
        try { return Libc.r((int) INOTIFY_RM_WATCH.invokeExact(errno, fd, wd), errno); } catch (Throwable t) { throw Libc.broken(t); }
    }

    /**
     * {@code eventfd(2)}: a descriptor over a 64-bit counter, to wake a thread that waits in
     * {@link Libc#poll} or a read.
     *
     * @param initval the counter's first value
     * @param flags {@link #EFD_CLOEXEC}, {@link #EFD_NONBLOCK}, or 0
     * @return its descriptor, or -errno
     */
    public static int eventfd(int initval, int flags) {
        MemorySegment errno = Libc.THREAD_ERRNO.get();
        try { return Libc.r((int) EVENTFD.invokeExact(errno, initval, flags), errno); } catch (Throwable t) { throw Libc.broken(t); }
    }
}
