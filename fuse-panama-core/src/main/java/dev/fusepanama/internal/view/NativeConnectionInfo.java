package dev.fusepanama.internal.view;

import dev.fusepanama.ConnectionInfo;
import dev.fusepanama.KernelSettings;
import dev.fusepanama.MountOptions;
import dev.fusepanama.internal.bind.fuse_conn_info;

/**
 * {@link ConnectionInfo} over a {@code struct fuse_conn_info}. With {@code extendedFlags}
 * (libfuse 3.17+) capabilities live in the 64-bit {@code *_ext} fields only: libfuse refuses an
 * init that changed both {@code want} and {@code want_ext}, so exactly one is ever written.
 */
public final class NativeConnectionInfo implements ConnectionInfo {
    private final long a;
    private final boolean extendedFlags;

    public NativeConnectionInfo(long address, boolean extendedFlags) {
        this.a = address;
        this.extendedFlags = extendedFlags;
    }

    private long capable() {
        return extendedFlags ? fuse_conn_info.capable_ext(a) : Integer.toUnsignedLong(fuse_conn_info.capable(a));
    }

    private long wanted() {
        return extendedFlags ? fuse_conn_info.want_ext(a) : Integer.toUnsignedLong(fuse_conn_info.want(a));
    }

    private void setWanted(long bits) {
        if (extendedFlags) {
            fuse_conn_info.want_ext(a, bits);
        } else {
            fuse_conn_info.want(a, (int) bits);
        }
    }

    @Override public int protocolMajor() { return fuse_conn_info.proto_major(a); }
    @Override public int protocolMinor() { return fuse_conn_info.proto_minor(a); }
    @Override public boolean isCapable(long capability) { return (capable() & capability) == capability; }
    @Override public boolean wants(long capability) { return (wanted() & capability) == capability; }
    @Override public int maxWrite() { return fuse_conn_info.max_write(a); }
    @Override public int maxRead() { return fuse_conn_info.max_read(a); }
    @Override public int maxReadahead() { return fuse_conn_info.max_readahead(a); }
    @Override public int maxBackground() { return fuse_conn_info.max_background(a); }
    @Override public int congestionThreshold() { return fuse_conn_info.congestion_threshold(a); }
    @Override public int timeGranularity() { return fuse_conn_info.time_gran(a); }

    /** Turns {@code capabilities} on where the kernel offers them. */
    public void want(long capabilities) {
        setWanted(wanted() | (capable() & capabilities));
    }

    /** The kernel's request timeout in seconds (libfuse 3.18+ only: the caller checks the release). */
    public void requestTimeout(int seconds) {
        fuse_conn_info.request_timeout(a, seconds);
    }

    /** Turns {@code capabilities} off. */
    public void unwant(long capabilities) {
        setWanted(wanted() & ~capabilities);
    }

    /**
     * Applies the mount's settings and the filesystem's capabilities before the filesystem's
     * init sees them: each wanted capability the kernel offers is turned on (one it does not
     * offer is left off, never failing the mount), then the unwanted ones are turned off.
     */
    public void apply(MountOptions options, KernelSettings settings) {
        long want = wanted() | (capable() & settings.wantedCapabilities());
        setWanted(want & ~settings.unwantedCapabilities());
        if (options.maxWrite() > 0) fuse_conn_info.max_write(a, options.maxWrite());
        if (options.maxRead() > 0) fuse_conn_info.max_read(a, options.maxRead());
        if (options.maxReadahead() >= 0) fuse_conn_info.max_readahead(a, options.maxReadahead());
        if (options.maxBackground() >= 0) fuse_conn_info.max_background(a, options.maxBackground());
        if (options.congestionThreshold() >= 0) fuse_conn_info.congestion_threshold(a, options.congestionThreshold());
        if (options.timeGranularity() > 0) fuse_conn_info.time_gran(a, options.timeGranularity());
    }
}
