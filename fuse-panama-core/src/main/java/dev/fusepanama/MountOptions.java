package dev.fusepanama;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalDouble;

/**
 * How to mount: typed settings for what users commonly set, and raw {@code -o} options for the
 * rest. Immutable; start from {@link #defaults()} or {@link #builder()}.
 *
 * <p>Two defaults are fuse-panama's own, each measured (see the bench module's RESULTS.md):
 * <ul>
 *   <li>idle worker threads are always kept ({@code maxIdleThreads = maxThreads}; libfuse's own
 *       default depends on its version), because each new native thread pays a JVM attach on its
 *       first request;</li>
 *   <li>{@code auto_inval_data}, which libfuse 3 requests, is not ({@link Builder#autoInvalData}): cached file data
 *       is dropped at every open, the close-to-open consistency of libfuse 2 and NFS, instead of
 *       the kernel asking for the attributes before every read whose cached attributes have
 *       expired, which with {@code attrTimeout(0)} is every read and halves small-read
 *       throughput.</li>
 * </ul>
 */
public final class MountOptions {
    /** Largest write request libfuse 3 can receive (its buffer holds 256 pages). */
    public static final int MAX_WRITE_LIMIT = 1 << 20;

    private final boolean readOnly;
    private final boolean allowOther;
    private final boolean defaultPermissions;
    private final String fsName;
    private final String subtype;
    private final OptionalDouble attrTimeout;
    private final OptionalDouble entryTimeout;
    private final OptionalDouble negativeTimeout;
    private final int maxWrite;
    private final int maxThreads;
    private final int maxIdleThreads;
    private final boolean singleThreaded;
    private final boolean directIo;
    private final boolean kernelCache;
    private final boolean autoCache;
    private final boolean autoInvalData;
    private final boolean hardRemove;
    private final boolean nullPathOk;
    private final boolean useIno;
    private final boolean debug;
    private final Duration mountTimeout;
    private final Duration closeTimeout;
    private final List<String> rawOptions;

    private MountOptions(Builder b) {
        this.readOnly = b.readOnly;
        this.allowOther = b.allowOther;
        this.defaultPermissions = b.defaultPermissions;
        this.fsName = b.fsName;
        this.subtype = b.subtype;
        this.attrTimeout = b.attrTimeout;
        this.entryTimeout = b.entryTimeout;
        this.negativeTimeout = b.negativeTimeout;
        this.maxWrite = b.maxWrite;
        this.maxThreads = b.maxThreads;
        this.maxIdleThreads = b.maxIdleThreads < 0 ? b.maxThreads : b.maxIdleThreads;
        this.singleThreaded = b.singleThreaded;
        this.directIo = b.directIo;
        this.kernelCache = b.kernelCache;
        this.autoCache = b.autoCache;
        this.autoInvalData = b.autoInvalData;
        this.hardRemove = b.hardRemove;
        this.nullPathOk = b.nullPathOk;
        this.useIno = b.useIno;
        this.debug = b.debug;
        this.mountTimeout = b.mountTimeout;
        this.closeTimeout = b.closeTimeout;
        this.rawOptions = List.copyOf(b.rawOptions);
    }

    public static MountOptions defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public boolean readOnly() { return readOnly; }
    public boolean allowOther() { return allowOther; }
    public boolean defaultPermissions() { return defaultPermissions; }
    public String fsName() { return fsName; }
    public String subtype() { return subtype; }
    public OptionalDouble attrTimeout() { return attrTimeout; }
    public OptionalDouble entryTimeout() { return entryTimeout; }
    public OptionalDouble negativeTimeout() { return negativeTimeout; }
    /** 0 leaves libfuse's default (its maximum, 1 MiB on 3.14). */
    public int maxWrite() { return maxWrite; }
    public int maxThreads() { return maxThreads; }
    public int maxIdleThreads() { return maxIdleThreads; }
    public boolean singleThreaded() { return singleThreaded; }
    public boolean directIo() { return directIo; }
    public boolean kernelCache() { return kernelCache; }
    public boolean autoCache() { return autoCache; }
    public boolean autoInvalData() { return autoInvalData; }
    public boolean hardRemove() { return hardRemove; }
    public boolean nullPathOk() { return nullPathOk; }
    public boolean useIno() { return useIno; }
    public boolean debug() { return debug; }
    public Duration mountTimeout() { return mountTimeout; }
    public Duration closeTimeout() { return closeTimeout; }
    public List<String> rawOptions() { return rawOptions; }

    /** The {@code -o} options passed to libfuse's {@code fuse_new}, in order. */
    public List<String> libfuseOptions() {
        List<String> o = new ArrayList<>();
        if (readOnly) o.add("ro");
        if (allowOther) o.add("allow_other");
        if (defaultPermissions) o.add("default_permissions");
        o.add("fsname=" + (fsName == null ? "fuse-panama" : fsName));
        if (subtype != null) o.add("subtype=" + subtype);
        if (debug) o.add("debug");
        o.addAll(rawOptions);
        return o;
    }

    public Builder toBuilder() {
        Builder b = new Builder();
        b.readOnly = readOnly;
        b.allowOther = allowOther;
        b.defaultPermissions = defaultPermissions;
        b.fsName = fsName;
        b.subtype = subtype;
        b.attrTimeout = attrTimeout;
        b.entryTimeout = entryTimeout;
        b.negativeTimeout = negativeTimeout;
        b.maxWrite = maxWrite;
        b.maxThreads = maxThreads;
        b.maxIdleThreads = maxIdleThreads;
        b.singleThreaded = singleThreaded;
        b.directIo = directIo;
        b.kernelCache = kernelCache;
        b.autoCache = autoCache;
        b.autoInvalData = autoInvalData;
        b.hardRemove = hardRemove;
        b.nullPathOk = nullPathOk;
        b.useIno = useIno;
        b.debug = debug;
        b.mountTimeout = mountTimeout;
        b.closeTimeout = closeTimeout;
        b.rawOptions.addAll(rawOptions);
        return b;
    }

    public static final class Builder {
        private boolean readOnly;
        private boolean allowOther;
        private boolean defaultPermissions;
        private String fsName;
        private String subtype;
        private OptionalDouble attrTimeout = OptionalDouble.empty();
        private OptionalDouble entryTimeout = OptionalDouble.empty();
        private OptionalDouble negativeTimeout = OptionalDouble.empty();
        private int maxWrite;
        private int maxThreads = 10;
        private int maxIdleThreads = -1;
        private boolean singleThreaded;
        private boolean directIo;
        private boolean kernelCache;
        private boolean autoCache;
        private boolean autoInvalData;
        private boolean hardRemove;
        private boolean nullPathOk;
        private boolean useIno;
        private boolean debug;
        private Duration mountTimeout = Duration.ofSeconds(30);
        private Duration closeTimeout = Duration.ofSeconds(30);
        private final List<String> rawOptions = new ArrayList<>();

        private Builder() {}

        /** Mount read-only ({@code ro}). */
        public Builder readOnly(boolean on) { readOnly = on; return this; }
        /** Let other users access the mount ({@code allow_other}; non-root needs user_allow_other in /etc/fuse.conf). */
        public Builder allowOther(boolean on) { allowOther = on; return this; }
        /** Let the kernel check permissions from the reported modes ({@code default_permissions}). */
        public Builder defaultPermissions(boolean on) { defaultPermissions = on; return this; }
        /** The "device" shown in /proc/mounts and df. */
        public Builder fsName(String name) { fsName = checkOption("fsName", name); return this; }
        /** Shown as fuse.SUBTYPE in /proc/mounts. */
        public Builder subtype(String name) { subtype = checkOption("subtype", name); return this; }
        /** Seconds the kernel caches attributes (libfuse default 1). */
        public Builder attrTimeout(double seconds) { attrTimeout = OptionalDouble.of(nonNegative(seconds)); return this; }
        /** Seconds the kernel caches name lookups (libfuse default 1). */
        public Builder entryTimeout(double seconds) { entryTimeout = OptionalDouble.of(nonNegative(seconds)); return this; }
        /** Seconds the kernel caches failed lookups (libfuse default 0). */
        public Builder negativeTimeout(double seconds) { negativeTimeout = OptionalDouble.of(nonNegative(seconds)); return this; }

        /** Largest write request in bytes, 4096 to 1 MiB. */
        public Builder maxWrite(int bytes) {
            if (bytes < 4096 || bytes > MAX_WRITE_LIMIT) {
                throw new IllegalArgumentException("maxWrite must be between 4096 and " + MAX_WRITE_LIMIT + ": " + bytes);
            }
            maxWrite = bytes;
            return this;
        }

        /** Most worker threads of the multi-threaded loop (libfuse 3.12+; default 10). */
        public Builder maxThreads(int n) {
            if (n < 1) throw new IllegalArgumentException("maxThreads must be at least 1: " + n);
            maxThreads = n;
            return this;
        }

        /** Idle workers kept alive; default: all of them. */
        public Builder maxIdleThreads(int n) {
            if (n < 0) throw new IllegalArgumentException("maxIdleThreads must not be negative: " + n);
            maxIdleThreads = n;
            return this;
        }

        /** Serve every request on one thread (fuse_loop instead of fuse_loop_mt). */
        public Builder singleThreaded(boolean on) { singleThreaded = on; return this; }
        /** Bypass the page cache for every file. */
        public Builder directIo(boolean on) { directIo = on; return this; }
        /** Keep cached file data across opens (for data nothing else changes). */
        public Builder kernelCache(boolean on) { kernelCache = on; return this; }
        /** Keep cached file data across opens while mtime and size are unchanged. */
        public Builder autoCache(boolean on) { autoCache = on; return this; }
        /**
         * Whether the kernel checks a file's attributes before reading from its cached data and
         * drops that data when size or mtime changed ({@code FUSE_CAP_AUTO_INVAL_DATA}, which bare
         * libfuse 3 turns on). Default off: cached data is dropped at each open instead (as in
         * libfuse 2), which saves a getattr round trip per read when attributes are not cached.
         * Turn it on when file contents change behind the kernel's back while programs keep the
         * file open and read it again (a log being appended to by another host, say).
         */
        public Builder autoInvalData(boolean on) { autoInvalData = on; return this; }
        /** Unlink open files at once (see {@link FuseConfig#setHardRemove}). */
        public Builder hardRemove(boolean on) { hardRemove = on; return this; }
        public Builder nullPathOk(boolean on) { nullPathOk = on; return this; }
        /** Report the filesystem's own inode numbers. */
        public Builder useIno(boolean on) { useIno = on; return this; }
        /** libfuse's per-request trace, logged through SLF4J (logger dev.fusepanama.libfuse, DEBUG). */
        public Builder debug(boolean on) { debug = on; return this; }
        /** How long {@code mount} waits for the kernel's INIT before giving up. */
        public Builder mountTimeout(Duration timeout) { mountTimeout = Objects.requireNonNull(timeout); return this; }
        /**
         * How long {@code close} waits, after unmounting, for filesystem calls still running to
         * return (and for a lazily detached mount's last user to let go) before it gives up.
         */
        public Builder closeTimeout(Duration timeout) { closeTimeout = Objects.requireNonNull(timeout); return this; }

        /** Any other {@code -o} option libfuse or the kernel understands, e.g. "max_read=131072". */
        public Builder option(String option) {
            rawOptions.add(checkOption("option", option));
            return this;
        }

        public MountOptions build() {
            return new MountOptions(this);
        }

        private static double nonNegative(double seconds) {
            if (!(seconds >= 0)) throw new IllegalArgumentException("timeout must be >= 0 seconds: " + seconds);
            return seconds;
        }

        private static String checkOption(String what, String value) {
            Objects.requireNonNull(value, what);
            if (value.isEmpty() || value.indexOf(',') >= 0 || value.indexOf('\0') >= 0) {
                throw new IllegalArgumentException(what + " must be non-empty without ',' or NUL: '" + value + "'");
            }
            return value;
        }
    }
}
