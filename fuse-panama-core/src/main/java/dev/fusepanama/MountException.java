package dev.fusepanama;

import java.io.IOException;
import java.nio.file.Path;

/** A mount or unmount that did not happen; the message says why and how to fix it. */
public class MountException extends IOException {
    private static final long serialVersionUID = 1L;

    public enum Reason {
        MOUNTPOINT_MISSING,
        NOT_A_DIRECTORY,
        ALREADY_MOUNTED,
        STALE_MOUNT,
        NO_FUSE_DEVICE,
        PERMISSION_DENIED,
        LIBFUSE_UNAVAILABLE,
        /** The JVM runs on a system other than Linux, or on a processor architecture whose struct layouts fuse-panama does not know. */
        UNSUPPORTED_ARCHITECTURE,
        INVALID_OPTIONS,
        MOUNT_FAILED,
        INIT_FAILED,
        TIMEOUT,
        /** Unmount refused: something still uses the mount. */
        BUSY,
        UNMOUNT_FAILED
    }

    private final Reason reason;
    private final transient Path mountpoint;

    public MountException(Reason reason, Path mountpoint, String message) {
        this(reason, mountpoint, message, null);
    }

    public MountException(Reason reason, Path mountpoint, String message, Throwable cause) {
        super(message, cause);
        this.reason = reason;
        this.mountpoint = mountpoint;
    }

    public Reason reason() {
        return reason;
    }

    public Path mountpoint() {
        return mountpoint;
    }
}
