package dev.fusepanama;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * How to mount, for either API: who may use the mount, how requests are served (threads,
 * io_uring, passthrough, request sizes), timeouts of the mount itself; typed settings for what
 * fuse-panama knows, and {@link Builder#option raw -o options} for the rest. What the kernel may
 * cache or decide for the filesystem (capabilities, timeouts, page cache, directories) is not
 * here: the filesystem states it ({@link KernelSettings}). The path API's layer settings (how
 * unlinked open files are named, inode numbers) are {@link PathOptions}. A raw option that has a
 * typed setting is refused, so each setting has exactly one way in; the filesystem's
 * {@link FuseFileSystem#init} reads the outcome ({@link ConnectionInfo}, {@link FuseConfig}) but
 * changes nothing. Immutable; start from {@link #defaults()} or {@link #builder()}.
 *
 * <p>One default is fuse-panama's own, measured (see the bench module's RESULTS.md): idle worker
 * threads are always kept ({@code maxIdleThreads = maxThreads}; libfuse's own default depends on
 * its version), because each new native thread pays a JVM attach on its first request.
 */
public final class MountOptions {
    /** The readahead the kernel offers a FUSE mount in init (VM_READAHEAD_PAGES): 128 KiB. */
    public static final int KERNEL_READAHEAD = 128 * 1024;
    /** Largest write request libfuse 3 can receive (its buffer holds 256 pages). */
    public static final int MAX_WRITE_LIMIT = 1 << 20;
    /**
     * Most worker threads a mount may ask for: libfuse's FUSE_LOOP_MT_MAX_THREADS, "an arbitrary
     * large value that cannot be valid" by which it bounds the idle threads (the loop itself takes
     * any number, and would start that many threads under load).
     */
    public static final int MAX_THREADS = 100_000;

    /** Raw options that have a typed setting, by name (up to '='), and the setting. */
    private static final Map<String, String> TYPED = Map.ofEntries(
            Map.entry("ro", "readOnly"), Map.entry("rw", "readOnly"), Map.entry("allow_other", "allowOther"),
            Map.entry("default_permissions", "defaultPermissions"), Map.entry("fsname", "fsName"),
            Map.entry("subtype", "subtype"), Map.entry("debug", "debug"),
            Map.entry("max_write", "maxWrite"), Map.entry("max_read", "maxRead"), Map.entry("max_readahead", "maxReadahead"),
            Map.entry("max_background", "maxBackground"), Map.entry("congestion_threshold", "congestionThreshold"),
            Map.entry("time_gran", "timeGranularity"), Map.entry("max_threads", "maxThreads"),
            Map.entry("max_idle_threads", "maxIdleThreads"), Map.entry("intr", "interrupts"),
            Map.entry("io_uring", "ioUring"),
            Map.entry("io_uring_q_depth", "ioUringQueueDepth"));

    /** The options of {@link #TYPED} that take a value. */
    private static final Set<String> VALUED = Set.of("fsname", "subtype", "max_write", "max_read", "max_readahead", "max_background",
            "congestion_threshold", "time_gran", "max_threads", "max_idle_threads", "io_uring_q_depth");

    private final Builder s;

    private MountOptions(Builder settings) {
        this.s = settings;
    }

    /**
     * The defaults: read-write, only the mounting user, permissions checked by the filesystem,
     * fsname "fuse-panama", libfuse's request sizes, up to 10 worker threads all kept, no
     * interrupts, io_uring or passthrough, 30 seconds to mount and to close.
     *
     * @return the defaults
     */
    public static MountOptions defaults() {
        return builder().build();
    }

    /**
     * A builder holding {@link #defaults()}.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Whether the {@code -o} option {@code option} ({@code NAME} or {@code NAME=VALUE}) has a typed
     * setting here, which {@link Builder#fuseOptions} sets ({@code ro}, {@code allow_other},
     * {@code fsname=}, ...). False for the raw options it passes on ({@code allow_root},
     * {@code uid=}, ...) and for the {@link PathOptions} and {@link KernelSettings} settings.
     *
     * @param option an option as given after {@code -o}
     * @return true for the names that have a typed setting here
     */
    public static boolean isSetting(String option) {
        return TYPED.containsKey(optionName(option));
    }

    /**
     * Whether libfuse's mount or session takes the {@code -o} option {@code option} for a
     * filesystem on either API: a typed setting here ({@link #isSetting}), or one
     * {@link Builder#option} passes on ({@code allow_root}, {@code auto_unmount}, {@code nosuid},
     * {@code noatime}, ...). False for the path API's own ({@link PathOptions#isSetting},
     * {@link PathOptions#isPassedOn}), for the filesystem's ({@link KernelSettings#isSetting})
     * and for names libfuse does not know.
     *
     * @param option an option as given after {@code -o}
     * @return true for the options a mount of either API takes
     */
    public static boolean isMountOption(String option) {
        return isSetting(option) || FuseOptionNames.MOUNT.contains(optionName(option));
    }

    /**
     * The single options of a FUSE program's {@code -o} lists, in order: {@code "-o allow_other,ro
     * -ofsname=vault"} or a bare list {@code "ro,fsname=vault"} gives {@code [allow_other, ro,
     * fsname=vault]}, a blank line none. Nothing is checked beyond the spelling of the lists.
     *
     * @param commandLine {@code -o} lists separated by white space, each after {@code -o}, glued
     *     to it ({@code -oro}) or bare
     * @return the options in the order given, each {@code NAME} or {@code NAME=VALUE}; a new list
     * @throws IllegalArgumentException for a {@code -o} without a list, a word that is another flag
     *         ({@code -f}), or an empty option ({@code ro,,rw})
     */
    public static List<String> splitOptions(String commandLine) {
        List<String> all = new ArrayList<>();
        String[] words = commandLine.trim().isEmpty() ? new String[0] : commandLine.trim().split("\\s+");
        for (int i = 0; i < words.length; i++) {
            String list = words[i];
            if (list.equals("-o")) {
                if (++i == words.length) throw new IllegalArgumentException("-o needs a list of options after it");
                list = words[i];
            } else if (list.startsWith("-o")) {
                list = list.substring(2);
            } else if (list.startsWith("-")) {
                throw new IllegalArgumentException(list + " is not a mount option: give options as -o NAME[=VALUE],...");
            }
            for (String o : list.split(",", -1)) {
                if (o.isEmpty()) throw new IllegalArgumentException("an empty option in -o " + list);
                all.add(o);
            }
        }
        return all;
    }

    /**
     * The name of an {@code -o} option.
     *
     * @param option {@code NAME} or {@code NAME=VALUE}
     * @return all of {@code NAME}, or the part before the first {@code =} of {@code NAME=VALUE}
     */
    public static String optionName(String option) {
        return FuseOptionNames.name(option);
    }

    /** {@return whether the mount is read-only} ({@link Builder#readOnly}) */
    public boolean readOnly() { return s.readOnly; }
    /** {@return whether users other than the mounting one may use the mount} ({@link Builder#allowOther}) */
    public boolean allowOther() { return s.allowOther; }
    /** {@return whether the kernel checks permissions from the modes} ({@link Builder#defaultPermissions}) */
    public boolean defaultPermissions() { return s.defaultPermissions; }
    /** {@return the name shown as the mount's device, or null for "fuse-panama"} ({@link Builder#fsName}) */
    public String fsName() { return s.fsName; }
    /** {@return the subtype shown as {@code fuse.SUBTYPE}, or null for none} ({@link Builder#subtype}) */
    public String subtype() { return s.subtype; }
    /** {@return the largest write request in bytes; 0: libfuse's default} ({@link Builder#maxWrite}) */
    public int maxWrite() { return s.maxWrite; }
    /** {@return the largest read request in bytes; 0: the kernel's limit} ({@link Builder#maxRead}) */
    public int maxRead() { return s.maxRead; }
    /** {@return the most bytes read ahead; negative: libfuse's default} ({@link Builder#maxReadahead}) */
    public int maxReadahead() { return s.maxReadahead; }
    /** {@return the most background requests in flight; negative: libfuse's default} ({@link Builder#maxBackground}) */
    public int maxBackground() { return s.maxBackground; }
    /**
     * {@return the background requests at which the mount is congested; negative: libfuse's
     * default} ({@link Builder#congestionThreshold})
     */
    public int congestionThreshold() { return s.congestionThreshold; }
    /** {@return the timestamp granularity in nanoseconds; negative: libfuse's default (1)} ({@link Builder#timeGranularity}) */
    public int timeGranularity() { return s.timeGranularity; }
    /** {@return the most worker threads of the multi-threaded loop} ({@link Builder#maxThreads}) */
    public int maxThreads() { return s.maxThreads; }
    /** {@return the idle worker threads kept alive; {@link #maxThreads()} unless set} ({@link Builder#maxIdleThreads}) */
    public int maxIdleThreads() { return s.maxIdleThreads < 0 ? s.maxThreads : s.maxIdleThreads; }
    /** {@return whether every request is served on one thread} ({@link Builder#singleThreaded}) */
    public boolean singleThreaded() { return s.singleThreaded; }
    /** {@return whether the kernel's interrupts are asked for} ({@link Builder#interrupts}) */
    public boolean interrupts() { return s.interrupts; }
    /** {@return whether libfuse's per-request trace is logged} ({@link Builder#debug}) */
    public boolean debug() { return s.debug; }
    /**
     * {@return whether open and create may pass files through to the kernel}
     * ({@link FileInfo#setPassthrough}, {@link Builder#passthrough})
     */
    public boolean passthrough() { return s.passthrough; }
    /** {@return whether requests should travel over io_uring where the kernel and libfuse have it} ({@link Builder#ioUring}) */
    public boolean ioUring() { return s.ioUring; }
    /** {@return the requests in flight per io_uring queue; 0: libfuse's default} ({@link Builder#ioUringQueueDepth}) */
    public int ioUringQueueDepth() { return s.ioUringQueueDepth; }
    /** {@return how long mounting waits for the kernel's INIT} ({@link Builder#mountTimeout}) */
    public Duration mountTimeout() { return s.mountTimeout; }
    /** {@return how long closing waits for running calls to return} ({@link Builder#closeTimeout}) */
    public Duration closeTimeout() { return s.closeTimeout; }
    /**
     * {@return the seconds after which the kernel aborts the connection over an unanswered
     * request; 0: none asked for} ({@link Builder#requestTimeout})
     */
    public int requestTimeoutSeconds() { return s.requestTimeout; }
    /** {@return the raw {@code -o} options given to {@link Builder#option}, in order; a copy} */
    public List<String> rawOptions() { return List.copyOf(s.rawOptions); }

    /**
     * The {@code -o} options passed to libfuse when mounting ({@code fuse_new} or
     * {@code fuse_session_new}): the typed settings that are mount options, then the raw ones.
     *
     * @return the options in order, each {@code NAME} or {@code NAME=VALUE}; a new list
     */
    public List<String> libfuseOptions() {
        List<String> o = new ArrayList<>();
        if (s.readOnly) o.add("ro");
        if (s.allowOther) o.add("allow_other");
        if (s.defaultPermissions) o.add("default_permissions");
        o.add("fsname=" + (s.fsName == null ? "fuse-panama" : s.fsName));
        if (s.subtype != null) o.add("subtype=" + s.subtype);
        // The kernel's limit is a mount option; libfuse's copy in fuse_conn_info is set in init.
        if (s.maxRead > 0) o.add("max_read=" + s.maxRead);
        if (s.debug) o.add("debug");
        o.addAll(s.rawOptions);
        return o;
    }

    /**
     * A builder holding these settings, to change some of them.
     *
     * @return a new builder, independent of this object
     */
    public Builder toBuilder() {
        return s.copy();
    }

    /** Makes a {@link MountOptions}; each method returns the builder. Not thread-safe. */
    public static final class Builder implements Cloneable {
        private boolean readOnly;
        private boolean allowOther;
        private boolean defaultPermissions;
        private String fsName;
        private String subtype;
        private int maxWrite;
        private int maxRead;
        private int maxReadahead = -1;
        private int maxBackground = -1;
        private int congestionThreshold = -1;
        private int timeGranularity = -1;
        private int maxThreads = 10;
        private int maxIdleThreads = -1;
        private boolean singleThreaded;
        private boolean interrupts;
        private boolean debug;
        private boolean passthrough;
        private boolean ioUring;
        private int ioUringQueueDepth;
        private Duration mountTimeout = Duration.ofSeconds(30);
        private Duration closeTimeout = Duration.ofSeconds(30);
        private int requestTimeout;
        private List<String> rawOptions = new ArrayList<>();

        private Builder() {}

        private Builder copy() {
            try {
                Builder b = (Builder) clone();
                b.rawOptions = new ArrayList<>(rawOptions);
                return b;
            } catch (CloneNotSupportedException e) {
                throw new AssertionError(e);
            }
        }

        /**
         * Mount read-only ({@code ro}).
         *
         * @param on whether to mount read-only; default off
         * @return this builder
         */
        public Builder readOnly(boolean on) { readOnly = on; return this; }
        /**
         * Let other users access the mount ({@code allow_other}; non-root needs user_allow_other in /etc/fuse.conf).
         *
         * @param on whether other users (root included) may use the mount; default off: only
         *     the mounting user
         * @return this builder
         */
        public Builder allowOther(boolean on) { allowOther = on; return this; }
        /**
         * Let the kernel check permissions from the reported modes ({@code default_permissions}).
         *
         * @param on whether the kernel checks; default off: the filesystem decides, and one
         *     without checks of its own lets every user of the mount do anything
         * @return this builder
         */
        public Builder defaultPermissions(boolean on) { defaultPermissions = on; return this; }
        /**
         * The "device" shown in /proc/mounts and df.
         *
         * @param name the name; default "fuse-panama"
         * @return this builder
         * @throws IllegalArgumentException if {@code name} is empty or holds ',' or NUL
         */
        public Builder fsName(String name) { fsName = checkOption("fsName", name); return this; }
        /**
         * Shown as fuse.SUBTYPE in /proc/mounts.
         *
         * @param name the subtype; default none (plain {@code fuse})
         * @return this builder
         * @throws IllegalArgumentException if {@code name} is empty or holds ',' or NUL
         */
        public Builder subtype(String name) { subtype = checkOption("subtype", name); return this; }

        /**
         * Largest write request in bytes, 4096 to 1 MiB ({@link #MAX_WRITE_LIMIT}).
         *
         * @param bytes the size; default libfuse's, which depends on its release
         * @return this builder
         * @throws IllegalArgumentException outside 4096 to {@link #MAX_WRITE_LIMIT}
         */
        public Builder maxWrite(int bytes) {
            if (bytes < 4096 || bytes > MAX_WRITE_LIMIT) {
                throw new IllegalArgumentException("maxWrite must be between 4096 and " + MAX_WRITE_LIMIT + ": " + bytes);
            }
            maxWrite = bytes;
            return this;
        }

        /**
         * Largest read request in bytes (at least 4096). libfuse needs it twice, as the kernel's
         * {@code max_read} mount option and in {@code fuse_conn_info}; this sets both.
         *
         * @param bytes the size; default the kernel's limit
         * @return this builder
         * @throws IllegalArgumentException below 4096
         */
        public Builder maxRead(int bytes) {
            if (bytes < 4096) throw new IllegalArgumentException("maxRead must be at least 4096: " + bytes);
            maxRead = bytes;
            return this;
        }

        /**
         * Most bytes the kernel reads ahead of a sequential reader. Up to the kernel's offer
         * ({@link #KERNEL_READAHEAD}) it is negotiated in init; more is set right after init
         * through the mount's {@code read_ahead_kb} in sysfs, which needs root (otherwise it
         * stays at the offer, logged). Random reads are not affected: the kernel reads ahead only
         * for a sequential reader. Measured on the vault: 1 MiB reads 1.9-2.0 GB/s cold where
         * 128 KiB reads 1.4-1.6 (RESULTS.md).
         *
         * @param bytes 0 (no readahead) to 64 MiB; default libfuse's, the kernel's offer
         * @return this builder
         * @throws IllegalArgumentException if negative or above 64 MiB
         */
        public Builder maxReadahead(int bytes) {
            maxReadahead = notNegative("maxReadahead", bytes);
            if (bytes > 64 << 20) throw new IllegalArgumentException("maxReadahead above 64 MiB: " + bytes);
            return this;
        }
        /**
         * Most background requests (readahead, asynchronous direct I/O) the kernel keeps in flight.
         *
         * @param requests the count; default libfuse's
         * @return this builder
         * @throws IllegalArgumentException if negative
         */
        public Builder maxBackground(int requests) { maxBackground = notNegative("maxBackground", requests); return this; }
        /**
         * Background requests in flight at which the kernel reports the filesystem congested.
         *
         * @param requests the count; default libfuse's
         * @return this builder
         * @throws IllegalArgumentException if negative
         */
        public Builder congestionThreshold(int requests) { congestionThreshold = notNegative("congestionThreshold", requests); return this; }
        /**
         * Timestamp granularity in nanoseconds, a power of 10 up to 10^9 (1: nanosecond times):
         * under the writeback cache the kernel rounds the times it sets to it, so that they match
         * what the filesystem stores.
         *
         * @param nanos 1, 10, 100, ... or 1,000,000,000 (whole seconds); default libfuse's, 1
         * @return this builder
         * @throws IllegalArgumentException for any other value
         */
        public Builder timeGranularity(int nanos) {
            int power = 1;
            while (power < nanos && power < 1_000_000_000) {
                power *= 10;
            }
            if (power != nanos) {
                throw new IllegalArgumentException("timeGranularity must be a power of 10 from 1 to 10^9 ns: " + nanos);
            }
            timeGranularity = nanos;
            return this;
        }

        /**
         * Most worker threads of the multi-threaded loop (libfuse 3.12+; default 10), 1 to
         * {@link #MAX_THREADS}.
         *
         * @param n the most threads
         * @return this builder
         * @throws IllegalArgumentException outside 1 to {@link #MAX_THREADS}
         */
        public Builder maxThreads(int n) {
            if (n < 1 || n > MAX_THREADS) throw new IllegalArgumentException("maxThreads must be 1.." + MAX_THREADS + ": " + n);
            maxThreads = n;
            return this;
        }

        /**
         * Idle workers kept alive; default: all of them.
         *
         * @param n the idle threads kept; 0 keeps none, so that a request may start a thread
         * @return this builder
         * @throws IllegalArgumentException if negative
         */
        public Builder maxIdleThreads(int n) {
            if (n < 0) throw new IllegalArgumentException("maxIdleThreads must not be negative: " + n);
            maxIdleThreads = n;
            return this;
        }

        /**
         * Serve every request on one thread (fuse_loop instead of fuse_loop_mt).
         *
         * @param on whether to serve on one thread; default off
         * @return this builder
         */
        public Builder singleThreaded(boolean on) { singleThreaded = on; return this; }
        /**
         * Deliver the kernel's interrupts to operations (see {@link FuseContext#interrupted()}):
         * from libfuse 3.17 the kernel sends them only with this set. Before 3.17 they reach
         * {@code interrupted()} either way, and libfuse's interrupt signal (which it can install
         * only for the {@code -o} option those releases lack) is left off: it would kill the JVM.
         *
         * @param on whether to ask for interrupts; default off
         * @return this builder
         */
        public Builder interrupts(boolean on) { interrupts = on; return this; }
        /**
         * Let the filesystem's open and create hand the kernel the file's data
         * ({@link FileInfo#setPassthrough}): reads, writes and mmap of such a file then go from
         * the kernel to the backing file without a request (measured in RESULTS.md: about 24x
         * the 4 KiB random-read IOPS of a round trip). Needs libfuse 3.17+, a kernel with
         * {@code CONFIG_FUSE_PASSTHROUGH} (6.9+) and CAP_SYS_ADMIN; where any is missing the
         * mount still succeeds, files are served by the filesystem and {@link Mount#describe()}
         * says why. Backing files must not be on a stacked filesystem (overlayfs, another
         * passthrough FUSE mount); such a file is served by the filesystem. Off by default: it
         * turns the writeback cache off, and files are only passed through when the filesystem
         * asks. Not with a filesystem whose {@link KernelSettings} ask for
         * {@link KernelSettings.Builder#keepCache}, {@link KernelSettings.Builder#autoCache},
         * {@link KernelSettings.Builder#directIo} or {@link KernelSettings.Builder#writebackCache}
         * (the mount is refused: the first three decide the page cache of every file, and the
         * kernel refuses the last beside passthrough).
         *
         * @param on whether open and create may pass files through; default off
         * @return this builder
         */
        public Builder passthrough(boolean on) { passthrough = on; return this; }

        /**
         * Requests travel over io_uring instead of {@code read}/{@code write} on /dev/fuse
         * (FUSE-over-io_uring: one queue per CPU, served by threads libfuse starts). Needs libfuse
         * 3.18.2+ (3.18.0 and 3.18.1 free their queues twice when one fails to start), a kernel with {@code CONFIG_FUSE_IO_URING} and the fuse module parameter
         * {@code enable_uring} on (root: {@code echo 1 > /sys/module/fuse/parameters/enable_uring}),
         * and a process allowed to create an io_uring (the {@code kernel.io_uring_disabled} sysctl
         * and a container's seccomp filter may forbid it: the mount tries one before it asks
         * libfuse); where any is missing the mount uses /dev/fuse, and {@link Mount#describe()} says
         * which transport it got (also when libfuse fails to start its queues and falls back).
         * It trades latency for throughput: see RESULTS.md. On the inode API with libfuse up to
         * 3.18, a reply may only be sent from the thread that received its request (libfuse's
         * queue would be corrupted otherwise), so {@link dev.fusepanama.inode.Reply#defer()}
         * throws there; the path API never defers.
         *
         * @param on whether to ask for io_uring; default off
         * @return this builder
         */
        public Builder ioUring(boolean on) { ioUring = on; return this; }

        /**
         * Requests in flight per io_uring queue (libfuse's {@code io_uring_q_depth}); 0: libfuse's default.
         *
         * @param depth the queue depth, 0 for libfuse's
         * @return this builder
         * @throws IllegalArgumentException if negative
         */
        public Builder ioUringQueueDepth(int depth) { ioUringQueueDepth = notNegative("ioUringQueueDepth", depth); return this; }

        /**
         * libfuse's per-request trace, logged through SLF4J (logger dev.fusepanama.libfuse, DEBUG).
         *
         * @param on whether to trace; default off
         * @return this builder
         */
        public Builder debug(boolean on) { debug = on; return this; }
        /**
         * How long {@code mount} waits for the kernel's INIT before giving up.
         *
         * @param timeout the wait; default 30 seconds
         * @return this builder
         * @throws NullPointerException if {@code timeout} is null
         */
        public Builder mountTimeout(Duration timeout) { mountTimeout = Objects.requireNonNull(timeout); return this; }
        /**
         * How long {@code close} waits, after unmounting, for filesystem calls still running to
         * return (and for a lazily detached mount's last user to let go) before it gives up.
         *
         * @param timeout the wait; default 30 seconds
         * @return this builder
         * @throws NullPointerException if {@code timeout} is null
         */
        public Builder closeTimeout(Duration timeout) { closeTimeout = Objects.requireNonNull(timeout); return this; }

        /**
         * A request the filesystem leaves unanswered for {@code timeout} makes the kernel abort
         * the connection (libfuse 3.18+, Linux 6.14+): every waiting and later system call on the
         * mount then fails with ENOTCONN, as after {@link Mount#forceClose}, instead of hanging its
         * callers for as long as the filesystem is stuck. The kernel checks pending requests
         * every 15 seconds or so, so the abort comes up to that much later; it caps the timeout at
         * {@code /proc/sys/fs/fuse/max_request_timeout} when that is set, and applies
         * {@code default_request_timeout} to mounts that ask for none. Whole seconds, 1 to 65535
         * ({@link Duration#ZERO}: none). Mounting on an earlier libfuse fails, naming the release
         * that has it; a kernel without it ignores it ({@link Mount#describe()} says what was asked).
         *
         * @param timeout the timeout, rounded up to whole seconds; default {@link Duration#ZERO}
         * @return this builder
         * @throws IllegalArgumentException if negative or above 65535 seconds
         */
        public Builder requestTimeout(Duration timeout) {
            long seconds = Objects.requireNonNull(timeout).toSeconds() + (timeout.toNanosPart() > 0 ? 1 : 0);
            if (timeout.isNegative() || seconds > 65535) {
                throw new IllegalArgumentException("requestTimeout is 0 to 65535 seconds: " + timeout);
            }
            requestTimeout = (int) seconds;
            return this;
        }

        /**
         * Any other {@code -o} option libfuse or the kernel understands, e.g. {@code "umask=022"},
         * {@code "uid=1000"}, {@code "noforget"}. An option that has a typed setting here is refused
         * with the setting's name, so that no setting can be made two ways.
         *
         * @param option {@code NAME} or {@code NAME=VALUE}, added after those given before
         * @return this builder
         * @throws IllegalArgumentException if {@code option} is empty or holds ',' or NUL, has a
         *     typed setting here, or is a {@link KernelSettings} or {@link PathOptions} setting
         */
        public Builder option(String option) {
            checkOption("option", option);
            String name = optionName(option);
            if (FuseOptionNames.PATH_SETTINGS.contains(name) || FuseOptionNames.KERNEL_SETTINGS.contains(name)) {
                throw notTheMount(option);
            }
            String setting = TYPED.get(name);
            if (setting != null) {
                throw new IllegalArgumentException("-o " + option + " has a typed setting: use MountOptions.Builder." + setting);
            }
            rawOptions.add(option);
            return this;
        }

        /**
         * FUSE's own {@code -o} options, spelt as a FUSE program's command line takes them:
         * {@code "-o allow_other,ro -ofsname=vault"}, or a bare list {@code "ro,fsname=vault"}.
         * Each option with a typed setting here sets it ({@code ro}/{@code rw}, {@code allow_other},
         * {@code default_permissions}, {@code fsname=}, {@code subtype=}, {@code max_read=},
         * {@code io_uring}, ...); the filesystem's ({@code attr_timeout=}, {@code kernel_cache},
         * {@code auto_inval_data}: {@link KernelSettings.Builder#fuseOption}) and the path API's
         * ({@code hard_remove}: {@link PathOptions.Builder#fuseOption}) are refused; any other goes to libfuse as
         * {@link #option} would send it ({@code allow_root}, {@code auto_unmount}, {@code uid=},
         * {@code gid=}, {@code umask=}, ...), which refuses one it does not know when mounting.
         *
         * @param commandLine {@code -o} lists, as {@link MountOptions#splitOptions} reads them
         * @return this builder
         * @throws IllegalArgumentException for a malformed list, a value that is not a number
         *         where one is needed, or two options that contradict each other ({@code ro,rw})
         */
        public Builder fuseOptions(String commandLine) {
            Map<String, String> seen = new HashMap<>();
            for (String o : splitOptions(commandLine)) {
                String name = optionName(o);
                String setting = TYPED.get(name);
                if (setting != null) {
                    String before = seen.put(setting, o);
                    if (before != null && !before.equals(o)) {
                        throw new IllegalArgumentException("-o " + before + " and -o " + o + " contradict each other");
                    }
                }
                fuseOption(name, name.length() == o.length() ? null : o.substring(name.length() + 1), o);
            }
            return this;
        }

        private void fuseOption(String name, String value, String option) {
            if (FuseOptionNames.PATH_SETTINGS.contains(name) || FuseOptionNames.KERNEL_SETTINGS.contains(name)) {
                throw notTheMount(option);
            }
            if (value != null && TYPED.containsKey(name) && !VALUED.contains(name)) {
                throw new IllegalArgumentException("-o " + name + " takes no value: " + option);
            }
            try {
                typedOption(name, value, option);
            } catch (IllegalArgumentException e) {
                // a typed setter's refusal in the option's own spelling
                throw e.getMessage().startsWith("-o ") ? e : new IllegalArgumentException("-o " + option + ": " + e.getMessage(), e);
            }
        }

        private void typedOption(String name, String value, String option) {
            switch (name) {
                case "ro" -> readOnly(true);
                case "rw" -> readOnly(false);
                case "allow_other" -> allowOther(true);
                case "default_permissions" -> defaultPermissions(true);
                case "fsname" -> fsName(value(name, option, value));
                case "subtype" -> subtype(value(name, option, value));
                case "debug" -> debug(true);
                case "intr" -> interrupts(true);
                case "io_uring" -> ioUring(true);
                case "max_write" -> maxWrite(number(option, value));
                case "max_read" -> maxRead(number(option, value));
                case "max_readahead" -> maxReadahead(number(option, value));
                case "max_background" -> maxBackground(number(option, value));
                case "congestion_threshold" -> congestionThreshold(number(option, value));
                case "time_gran" -> timeGranularity(number(option, value));
                case "max_threads" -> maxThreads(number(option, value));
                case "max_idle_threads" -> maxIdleThreads(number(option, value));
                case "io_uring_q_depth" -> ioUringQueueDepth(number(option, value));
                default -> option(option);
            }
        }

        private static IllegalArgumentException notTheMount(String option) {
            if (KernelSettings.isSetting(option)) {
                return new IllegalArgumentException("-o " + option + " is a kernel setting the filesystem states, not one of the mount: "
                        + "KernelSettings.Builder.fuseOption, returned by the filesystem's kernelSettings() "
                        + "(ForwardingFileSystem.withKernelSettings or ForwardingInodeFileSystem.withKernelSettings to change it)");
            }
            return new IllegalArgumentException("-o " + option + " is a setting of the path API, not of the mount: "
                    + "PathOptions.Builder.fuseOption");
        }

        private static String value(String name, String option, String value) {
            if (value == null || value.isEmpty()) throw new IllegalArgumentException("-o " + option + " needs a value: " + name + "=VALUE");
            return value;
        }

        private static int number(String option, String value) {
            try {
                return Integer.parseInt(value(optionName(option), option, value));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("-o " + option + ": " + value + " is not a whole number");
            }
        }

        /**
         * The settings made so far.
         *
         * @return an immutable {@link MountOptions}; this builder may go on being used
         */
        public MountOptions build() {
            return new MountOptions(copy());
        }

        private static int notNegative(String what, int value) {
            if (value < 0) throw new IllegalArgumentException(what + " must not be negative: " + value);
            return value;
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
