package dev.fusepanama.internal.passthrough;

import dev.fusepanama.Errno;
import dev.fusepanama.Posix;
import dev.fusepanama.libc.structs.stat;
import dev.fusepanama.libc.Libc;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One mount's kernel passthrough: the backing ids registered with the kernel
 * ({@code FUSE_DEV_IOC_BACKING_OPEN} on the session's {@code /dev/fuse} descriptor) and which open
 * files use them.
 *
 * <p>The kernel binds an inode to one backing while any file of it is open in passthrough mode:
 * every other open of that inode must be a passthrough open with the same backing, or it fails
 * (the program sees EIO). So one backing id is shared by every open of one backing file (its
 * device and inode number), counted, and closed when the last of them is released. Opens are told
 * apart at release by their file handle, so a filesystem that passes through gives each open file
 * a handle of its own (its descriptor, say).
 *
 * <p>Thread-safe: the tables and the ioctls that change them are under one lock, so that two opens
 * of one file never register it twice; the ioctl is a few microseconds, once per backing file.
 */
public final class BackingFiles {
    private static final Logger LOG = LoggerFactory.getLogger(BackingFiles.class);

    /** {@code _IOW(229, 1, struct fuse_backing_map)}: {int32 fd, uint32 flags, uint64 padding}. */
    static final long FUSE_DEV_IOC_BACKING_OPEN = 0x4010E501L;
    /** {@code _IOW(229, 2, uint32_t)}: the backing id. */
    static final long FUSE_DEV_IOC_BACKING_CLOSE = 0x4004E502L;

    /** What an open asked for, between {@link #acquire} and {@link #settle}. */
    public record Pending(Key key, int backingId) {}

    /** A backing file (device, inode), or on the inode API the FUSE inode it backs (device -1, node id). */
    record Key(long device, long inode) {}

    /** An open file as release names it: the FUSE inode (-1 on the path API, which does not say) and the handle. */
    private record Handle(long ino, long fh) {}

    /** The opens behind one handle, and their backing. */
    private static final class Opened {
        final Key key;
        int count = 1;

        Opened(Key key) {
            this.key = key;
        }
    }

    private static final class Backing {
        final int id;
        int opens;

        Backing(int id) {
            this.id = id;
        }
    }


    private final String mountpoint;
    private int deviceFd = -1;
    /** Why files cannot be passed through, or null; null until init says otherwise (no open comes before it). */
    private volatile String unavailable;
    private final Map<Key, Backing> byFile = new HashMap<>();
    private final Map<Handle, Opened> byHandle = new HashMap<>();
    private boolean warnedHandles;
    private static final ThreadLocal<MemorySegment> SCRATCH =
            ThreadLocal.withInitial(() -> Arena.ofAuto().allocate(stat.SIZE, 8));

    public BackingFiles(String mountpoint) {
        this.mountpoint = mountpoint;
    }

    /** After init: the session's device descriptor, and whether the kernel granted passthrough (null reason: it did). */
    public synchronized void negotiated(int deviceFd, String unavailable) {
        this.deviceFd = deviceFd;
        this.unavailable = unavailable;
    }

    /** Why files of this mount cannot be passed through, or null if they can. */
    public String unavailable() {
        return unavailable;
    }

    /**
     * Once the kernel has the INIT reply (it accepts backing files only from then on): asks it to
     * register no file at all (descriptor -1), which it answers EBADF where registrations work.
     * Anything else means none ever will (no CAP_SYS_ADMIN, or an emulator or filter between this
     * process and /dev/fuse that does not pass the ioctl on), so {@link #unavailable} says so
     * before the first open rather than each open failing on its own.
     */
    public synchronized void probe() {
        if (unavailable != null || deviceFd < 0) {
            return;
        }
        int rc = register(-1);
        if (rc >= 0) {
            close(rc);
        } else if (refusesEveryFile(rc)) {
            refused(rc);
        } else if (rc != -Errno.EBADF) {
            LOG.debug("{}: registering no file answered {}, not EBADF; passthrough stays on", mountpoint, Errno.name(-rc));
        }
    }

    /** Whether a registration that failed with {@code rc} means no file of this mount can be registered. */
    private static boolean refusesEveryFile(int rc) {
        return rc == -Errno.EPERM || rc == -Errno.ENOTTY || rc == -Errno.ENOSYS || rc == -Errno.EOPNOTSUPP;
    }

    /**
     * Registers {@code fd} as the backing file of an open: what to put in the open reply, or null
     * if it is not passed through (passthrough is unavailable here, or {@code fd} is not a
     * regular file the kernel accepts).
     */
    public Pending acquire(int fd) {
        return acquire(fd, -1);
    }

    /**
     * As {@link #acquire(int)} for the inode API: the backing is shared by the opens of the FUSE
     * inode {@code nodeid} (the filesystem decides what an inode is, so a replaced file is a new
     * one); while one is open, further opens of that inode use its backing file.
     */
    public Pending acquireInode(long nodeid, int fd) {
        return acquire(fd, nodeid);
    }

    private Pending acquire(int fd, long nodeid) {
        if (unavailable != null) {
            return null;
        }
        MemorySegment st = SCRATCH.get();
        int rc = Libc.fstat(fd, st);
        if (rc < 0) {
            LOG.debug("passthrough in {}: fstat of descriptor {} failed: {}", mountpoint, fd, Errno.name(-rc));
            return null;
        }
        if ((stat.st_mode(st.address()) & Posix.S_IFMT) != Posix.S_IFREG) {
            return null;
        }
        Key key = nodeid >= 0 ? new Key(-1, nodeid) : new Key(stat.st_dev(st.address()), stat.st_ino(st.address()));
        synchronized (this) {
            if (unavailable != null) {
                return null;
            }
            Backing b = byFile.get(key);
            if (b == null) {
                int id = open(fd);
                if (id <= 0) {
                    return null;
                }
                b = new Backing(id);
                byFile.put(key, b);
            }
            b.opens++;
            return new Pending(key, b.id);
        }
    }

    /**
     * After the filesystem's open or create returned {@code rc} with {@code fh}: keeps the
     * registration for the open file, or undoes it. Returns false if the open must not be passed
     * through after all (another open file with another backing already has this handle).
     */
    public boolean settle(Pending pending, int rc, long fh) {
        return settle(pending, rc, -1, fh);
    }

    /** As {@link #settle(Pending, int, long)} for an open of the FUSE inode {@code ino} (inode API). */
    public boolean settle(Pending pending, int rc, long ino, long fh) {
        synchronized (this) {
            if (rc >= 0) {
                Handle h = new Handle(ino, fh);
                Opened o = byHandle.get(h);
                if (o == null) {
                    byHandle.put(h, new Opened(pending.key()));
                    return true;
                }
                if (o.key.equals(pending.key())) {
                    o.count++;
                    return true;
                }
                if (!warnedHandles) {
                    warnedHandles = true;
                    LOG.warn("{}: two open files share the file handle {}; files are passed through only when each "
                            + "open file has a handle of its own (its descriptor, say); this one is served by the filesystem",
                            mountpoint, fh);
                }
            }
            drop(pending.key());
            return false;
        }
    }

    /** The open file with handle {@code fh} was released: its backing is closed with its last open. */
    public void release(long fh) {
        release(-1, fh);
    }

    /** As {@link #release(long)} for an open of the FUSE inode {@code ino} (inode API). */
    public void release(long ino, long fh) {
        synchronized (this) {
            Handle h = new Handle(ino, fh);
            Opened o = byHandle.get(h);
            if (o != null) {
                if (--o.count == 0) {
                    byHandle.remove(h);
                }
                drop(o.key);
            }
        }
    }

    /** The session ended: the kernel has dropped every backing id with the connection. */
    public synchronized void ended() {
        byFile.clear();
        byHandle.clear();
        deviceFd = -1;
        if (unavailable == null) {
            unavailable = "the mount has ended";
        }
    }

    private void drop(Key key) {
        Backing b = byFile.get(key);
        if (b != null && --b.opens == 0) {
            byFile.remove(key);
            close(b.id);
        }
    }

    private int open(int fd) {
        int id = register(fd);
        if (id < 0) {
            if (refusesEveryFile(id)) {
                refused(id);
            } else {
                LOG.info("{}: a file cannot be passed through ({}); it is served by the filesystem", mountpoint,
                        Errno.name(-id));
            }
        }
        return id;
    }

    /** {@code FUSE_DEV_IOC_BACKING_OPEN} of {@code fd}: the backing id, or -errno. */
    private int register(int fd) {
        MemorySegment map = SCRATCH.get(); // after fstat's use: {fd, flags, padding}
        map.set(ValueLayout.JAVA_INT, 0, fd);
        map.set(ValueLayout.JAVA_INT, 4, 0);
        map.set(ValueLayout.JAVA_LONG, 8, 0);
        return Libc.ioctl(deviceFd, FUSE_DEV_IOC_BACKING_OPEN, map);
    }

    /** Registrations were refused with {@code rc} in a way no other file would fare better: off for the mount. */
    private void refused(int rc) {
        unavailable = rc == -Errno.EPERM
                ? "registering a backing file needs CAP_SYS_ADMIN (EPERM)"
                : "the /dev/fuse descriptor does not take backing files (" + Errno.name(-rc)
                        + "): something between this process and the kernel, an emulator or a filter, does not pass the ioctl on";
        LOG.info("{}: kernel passthrough is off for this mount: {}", mountpoint, unavailable);
    }

    private void close(int id) {
        MemorySegment arg = SCRATCH.get();
        arg.set(ValueLayout.JAVA_INT, 0, id);
        int rc = Libc.ioctl(deviceFd, FUSE_DEV_IOC_BACKING_CLOSE, arg);
        if (rc < 0 && deviceFd >= 0) {
            LOG.debug("{}: closing backing id {}: {}", mountpoint, id, Errno.name(-rc));
        }
    }
}
