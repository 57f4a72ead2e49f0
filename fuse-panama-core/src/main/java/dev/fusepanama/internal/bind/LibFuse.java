package dev.fusepanama.internal.bind;

import static dev.fusepanama.internal.bind.Native.C_INT;
import static dev.fusepanama.internal.bind.Native.C_LONG;
import static dev.fusepanama.internal.bind.Native.C_POINTER;
import static dev.fusepanama.internal.bind.Native.LINKER;
import static java.lang.foreign.ValueLayout.ADDRESS;

import dev.fusepanama.libc.Arch;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The loaded libfuse3 and the downcalls into it. Loaded once per JVM: from the file or soname
 * that {@value #PROPERTY} (system property) or {@value #ENVIRONMENT} (environment variable)
 * names, otherwise the newest of {@link #SONAMES} that the dynamic linker finds. The entry
 * points and struct layouts then follow the release actually loaded ({@link LibFuseVersion},
 * {@link StructLayouts}).
 */
public final class LibFuse {
    public static final String PROPERTY = "fusepanama.libfuse";
    public static final String ENVIRONMENT = "FUSE_PANAMA_LIBFUSE";
    /**
     * Newest first: 3.17 bumped the soname to {@code libfuse3.so.4} (Debian 13, Ubuntu 25.04,
     * Fedora 42, Arch); 3.10 to 3.16 are {@code libfuse3.so.3}.
     */
    public static final List<String> SONAMES = List.of("libfuse3.so.4", "libfuse3.so.3");

    private static final Logger LOG = LoggerFactory.getLogger(LibFuse.class);

    private static volatile LibFuse instance;

    public final String name;
    public final LibFuseVersion version;
    public final String packageVersion;
    public final StructLayouts layouts;

    public final MethodHandle fuseNew;
    public final MethodHandle mount;
    public final MethodHandle unmount;
    public final MethodHandle destroy;
    public final MethodHandle loop;
    public final MethodHandle loopMt;
    public final MethodHandle loopCfgCreate;
    public final MethodHandle loopCfgDestroy;
    public final MethodHandle loopCfgSetMaxThreads;
    public final MethodHandle loopCfgSetIdleThreads;
    public final MethodHandle getContext;
    public final MethodHandle getGroups;
    public final MethodHandle interrupted;
    public final MethodHandle notifyPoll;
    public final MethodHandle invalidatePath;
    public final MethodHandle pollhandleDestroy;
    public final MethodHandle bufCopy;
    public final MethodHandle setLogFunc;
    /** {@code struct fuse_session *fuse_get_session(struct fuse *)}. */
    public final MethodHandle getSession;
    /** {@code int fuse_session_fd(struct fuse_session *)}: the /dev/fuse descriptor passthrough ioctls go to. */
    public final MethodHandle sessionFd;
    public final LibFuseLowLevel lowLevel;

    private LibFuse(String name, SymbolLookup lookup) {
        this.name = name;
        int v = (int) invoke(downcall(lookup, "fuse_version", FunctionDescriptor.of(C_INT)));
        Set<String> present = new HashSet<>();
        for (String s : LibFuseVersion.PROBED) {
            if (lookup.find(s).isPresent()) {
                present.add(s);
            }
        }
        MemorySegment pkg = (MemorySegment) invoke(downcall(lookup, "fuse_pkgversion", FunctionDescriptor.of(ADDRESS)));
        this.packageVersion = pkg.reinterpret(64).getString(0);
        this.version = LibFuseVersion.select(packageVersion, v, present);
        this.layouts = StructLayouts.of(version);
        if (version.newerThanKnown()) {
            String known = LibFuseVersion.NEWEST_KNOWN / 100 + "." + LibFuseVersion.NEWEST_KNOWN % 100;
            LOG.warn("libfuse {} ({}) is newer than the releases fuse-panama's struct layouts were checked against; "
                    + "using those of {}", packageVersion, name, known);
        }

        this.fuseNew = switch (version.newSymbol()) {
            case FUSE_NEW_317 -> downcall(lookup, version.newSymbol().symbol,
                    FunctionDescriptor.of(C_POINTER, ADDRESS, ADDRESS, C_LONG, ADDRESS, C_POINTER));
            case FUSE_NEW_31, FUSE_NEW -> downcall(lookup, version.newSymbol().symbol,
                    FunctionDescriptor.of(C_POINTER, ADDRESS, ADDRESS, C_LONG, C_POINTER));
        };
        this.mount = downcall(lookup, "fuse_mount", FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER));
        this.unmount = downcall(lookup, "fuse_unmount", FunctionDescriptor.ofVoid(C_POINTER));
        this.destroy = downcall(lookup, "fuse_destroy", FunctionDescriptor.ofVoid(C_POINTER));
        this.loop = downcall(lookup, "fuse_loop", FunctionDescriptor.of(C_INT, C_POINTER));
        this.loopMt = downcall(lookup, version.loopSymbol().symbol, FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER));
        boolean cfg = version.loopSymbol().usesConfigObject();
        this.loopCfgCreate = cfg ? downcall(lookup, "fuse_loop_cfg_create", FunctionDescriptor.of(C_POINTER)) : null;
        this.loopCfgDestroy = cfg ? downcall(lookup, "fuse_loop_cfg_destroy", FunctionDescriptor.ofVoid(C_POINTER)) : null;
        this.loopCfgSetMaxThreads = cfg ? downcall(lookup, "fuse_loop_cfg_set_max_threads",
                FunctionDescriptor.ofVoid(C_POINTER, C_INT)) : null;
        this.loopCfgSetIdleThreads = cfg ? downcall(lookup, "fuse_loop_cfg_set_idle_threads",
                FunctionDescriptor.ofVoid(C_POINTER, C_INT)) : null;
        // Reads a thread-local pointer: short, never blocks, never calls back into Java.
        this.getContext = downcall(lookup, "fuse_get_context", FunctionDescriptor.of(C_POINTER), Linker.Option.critical(false));
        this.getGroups = downcall(lookup, "fuse_getgroups", FunctionDescriptor.of(C_INT, C_INT, C_POINTER));
        this.interrupted = downcall(lookup, "fuse_interrupted", FunctionDescriptor.of(C_INT));
        this.notifyPoll = downcall(lookup, "fuse_notify_poll", FunctionDescriptor.of(C_INT, C_POINTER));
        this.invalidatePath = downcall(lookup, "fuse_invalidate_path", FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER));
        this.pollhandleDestroy = downcall(lookup, "fuse_pollhandle_destroy", FunctionDescriptor.ofVoid(C_POINTER));
        this.bufCopy = downcall(lookup, "fuse_buf_copy", FunctionDescriptor.of(C_LONG, C_POINTER, C_POINTER, C_INT));
        this.setLogFunc = downcall(lookup, "fuse_set_log_func", FunctionDescriptor.ofVoid(ADDRESS));
        this.getSession = downcall(lookup, "fuse_get_session", FunctionDescriptor.of(C_POINTER, C_POINTER));
        this.sessionFd = downcall(lookup, "fuse_session_fd", FunctionDescriptor.of(C_INT, C_POINTER));
        this.lowLevel = new LibFuseLowLevel(lookup, version);
    }

    /**
     * The library named by the property or the environment, or the newest soname found; loaded once.
     *
     * @throws LibFuseUnavailableException if there is none, or this JVM runs on an architecture
     *     whose layouts fuse-panama does not know ({@link Arch})
     */
    public static LibFuse get() {
        LibFuse lib = instance;
        if (lib == null) {
            synchronized (LibFuse.class) {
                lib = instance;
                if (lib == null) {
                    try {
                        Arch.current();
                    } catch (Arch.UnsupportedArchitectureException e) {
                        throw new LibFuseUnavailableException(e.getMessage(), e);
                    }
                    Cancellation.loadUnwinder();
                    String configured = configuredName();
                    lib = configured == null ? load(SONAMES) : load(List.of(configured));
                    FuseLog.install(lib);
                    instance = lib;
                }
            }
        }
        return lib;
    }

    /** The file or soname set by {@value #PROPERTY} or {@value #ENVIRONMENT}; null if neither is set. */
    static String configuredName() {
        String name = System.getProperty(PROPERTY);
        if (name == null || name.isBlank()) {
            name = System.getenv(ENVIRONMENT);
        }
        return name == null || name.isBlank() ? null : name;
    }

    /**
     * Loads the first of {@code names} (sonames or paths) that the dynamic linker can open and
     * fuse-panama supports.
     *
     * @throws LibFuseUnavailableException naming every name tried and why it failed, and the fix
     */
    public static LibFuse load(List<String> names) {
        List<String> failures = new ArrayList<>();
        for (String name : names) {
            SymbolLookup lookup;
            try {
                lookup = SymbolLookup.libraryLookup(name, Arena.global());
            } catch (IllegalArgumentException e) {
                failures.add(name + ": " + e.getMessage());
                continue;
            }
            try {
                return new LibFuse(name, lookup);
            } catch (UnsupportedOperationException e) {
                failures.add(name + ": " + e.getMessage()); // an unsupported .so.4 must not hide a usable .so.3
            }
        }
        throw new LibFuseUnavailableException(String.format(
                "no usable libfuse3 (3.10 or newer); tried %s. Install it (Debian/Ubuntu: apt-get install fuse3; "
                        + "Fedora: dnf install fuse3; Arch: pacman -S fuse3), or name the library file with "
                        + "-D%s=/path/to/libfuse3.so.N or the environment variable %s.",
                String.join("; ", failures), PROPERTY, ENVIRONMENT), null);
    }

    static MethodHandle downcall(SymbolLookup lookup, String symbol, FunctionDescriptor fd, Linker.Option... options) {
        Optional<MemorySegment> address = lookup.find(symbol);
        if (address.isEmpty()) {
            throw new UnsupportedOperationException("libfuse3 has no symbol " + symbol);
        }
        return LINKER.downcallHandle(address.get(), fd, options);
    }

    private static Object invoke(MethodHandle handle) {
        try {
            return handle.invoke();
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }
}
