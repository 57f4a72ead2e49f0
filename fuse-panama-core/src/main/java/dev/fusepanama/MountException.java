package dev.fusepanama;

import java.io.IOException;
import java.nio.file.Path;

/** A mount or unmount that did not happen; the message says why and how to fix it. */
public class MountException extends IOException {
    private static final long serialVersionUID = 1L;

    /** What went wrong, for a program to act on; the message says it for a person. */
    public enum Reason {
        /** The mountpoint does not exist: create the directory first. */
        MOUNTPOINT_MISSING,
        /** The mountpoint, or a path component on the way to it, is not a directory. */
        NOT_A_DIRECTORY,
        /** Something is already mounted at the mountpoint, or was mounted there while this mount was made. */
        ALREADY_MOUNTED,
        /**
         * The mountpoint is a FUSE mount whose process died without unmounting ("transport endpoint
         * is not connected"): {@code fusermount3 -u} removes it.
         */
        STALE_MOUNT,
        /** {@code /dev/fuse} does not exist: the FUSE kernel module is not loaded, or a container was not given the device. */
        NO_FUSE_DEVICE,
        /**
         * This process may not mount: as root, {@code /dev/fuse} cannot be opened for reading and
         * writing; as another user, the setuid helper {@code fusermount3} is missing; or this user
         * cannot reach the mountpoint (EACCES on the way to it).
         */
        PERMISSION_DENIED,
        /** libfuse3 could not be loaded: missing, older than fuse-panama supports, or unusable. */
        LIBFUSE_UNAVAILABLE,
        /** The JVM runs on a system other than Linux, or on a processor architecture whose struct layouts fuse-panama does not know. */
        UNSUPPORTED_ARCHITECTURE,
        /**
         * The options cannot be used together or with this filesystem or libfuse (libfuse rejected
         * them, an option needs a newer libfuse, or the filesystem's declared caching contradicts
         * what it implements).
         */
        INVALID_OPTIONS,
        /** libfuse or the kernel refused the mount, or the mountpoint could not be examined; the message has the reason. */
        MOUNT_FAILED,
        /** The filesystem's {@code init} threw; the exception is the cause, and the mount was undone. */
        INIT_FAILED,
        /** The kernel did not initialise the mount within {@link MountOptions#mountTimeout()}. */
        TIMEOUT,
        /** Unmount refused: something still uses the mount. */
        BUSY,
        /** The kernel refused the unmount for a reason other than {@link #BUSY}, or the caller was interrupted while unmounting. */
        UNMOUNT_FAILED
    }

    /** Why the mount or unmount did not happen. */
    private final Reason reason;
    private final transient Path mountpoint;

    /**
     * A failure without a cause.
     *
     * @param reason what went wrong
     * @param mountpoint where, or null if the failure concerns no mountpoint
     * @param message what happened and how to fix it
     */
    public MountException(Reason reason, Path mountpoint, String message) {
        this(reason, mountpoint, message, null);
    }

    /**
     * A failure with the exception that caused it.
     *
     * @param reason what went wrong
     * @param mountpoint where, or null if the failure concerns no mountpoint
     * @param message what happened and how to fix it
     * @param cause the exception that caused it, or null
     */
    public MountException(Reason reason, Path mountpoint, String message, Throwable cause) {
        super(message, cause);
        this.reason = reason;
        this.mountpoint = mountpoint;
    }

    /**
     * What went wrong.
     *
     * @return the reason given to the constructor
     */
    public Reason reason() {
        return reason;
    }

    /**
     * Where it went wrong.
     *
     * @return the mountpoint, or null if the failure concerns none (a missing {@code /dev/fuse},
     *     libfuse unavailable from {@link Fuse#checkReady()}) or the exception was deserialized (the
     *     path is not serialized)
     */
    public Path mountpoint() {
        return mountpoint;
    }
}
