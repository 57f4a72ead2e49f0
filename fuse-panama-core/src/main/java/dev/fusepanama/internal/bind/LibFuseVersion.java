package dev.fusepanama.internal.bind;

import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The loaded libfuse's release and what follows from it: which entry points to call and which
 * struct layouts it was built with. A pure decision, unit-tested for releases that are not
 * installed on the build machine; the layouts themselves are chosen by the binding classes
 * ({@code fuse_config.layout(version)}, ...) and checked against each tested release's headers.
 *
 * <p>The release must be known to the patch level: {@code fuse_version()} says 314 for both
 * 3.14.0 and 3.14.1, whose {@code struct fuse_config} and {@code fuse_file_info} bit fields differ.
 * It comes from {@code fuse_pkgversion()}.
 *
 * <ul>
 *   <li>{@code fuse_new}: from 3.17 a program compiled against the headers calls
 *       {@code _fuse_new_31(args, ops, size, &version, data)} with the release it was built for
 *       (fuse.h's inline {@code fuse_new}); we pass the loaded release, whose layouts we use.
 *       Earlier releases export the default {@code fuse_new@@FUSE_3.1}, from 3.13 also by the
 *       name {@code fuse_new_31}.</li>
 *   <li>{@code fuse_loop_mt}: 3.12 introduced the opaque {@code fuse_loop_cfg_*} config and
 *       {@code fuse_loop_mt_312}; 3.10 and 3.11 take the public v1 struct through their default
 *       {@code fuse_loop_mt} (3.12 renamed that entry {@code fuse_loop_mt_32}).</li>
 *   <li>capabilities: from 3.17 the 64-bit {@code want_ext} is authoritative, and 3.17.1 refuses
 *       an init that set both it and {@code want}, so only {@code want_ext} is written.</li>
 * </ul>
 *
 * @param major e.g. 3
 * @param minor e.g. 18
 * @param patch e.g. 3
 */
public record LibFuseVersion(int major, int minor, int patch, NewSymbol newSymbol, LoopSymbol loopSymbol) {

    /** The oldest release accepted: 3.10 (Debian 11, Ubuntu 22.04). */
    public static final int MINIMUM = 310;

    /**
     * The newest minor release whose headers the layouts were checked against. A later one is
     * used with its layouts (libfuse keeps the ABI within a soname, and 3.17 and 3.18 only
     * appended fields), but {@link #newerThanKnown()} lets the loader say so.
     */
    public static final int NEWEST_KNOWN = 318;

    public enum NewSymbol {
        /** {@code struct fuse *_fuse_new_31(args, ops, size, struct libfuse_version *, data)}, 3.17+. */
        FUSE_NEW_317("_fuse_new_31"),
        /** {@code struct fuse *fuse_new_31(args, ops, size, data)}. */
        FUSE_NEW_31("fuse_new_31"),
        /** The unversioned default, same signature as 3.1. */
        FUSE_NEW("fuse_new");

        public final String symbol;

        NewSymbol(String symbol) { this.symbol = symbol; }
    }

    public enum LoopSymbol {
        /** {@code fuse_loop_mt_312(f, struct fuse_loop_config *)} with a config from fuse_loop_cfg_create. */
        LOOP_MT_312("fuse_loop_mt_312"),
        /** Default {@code fuse_loop_mt} where the library is built without versioned names. */
        LOOP_MT_DEFAULT_312("fuse_loop_mt"),
        /** {@code fuse_loop_mt_32(f, struct fuse_loop_config_v1 *)}, 3.12+'s name for the 3.2 ABI. */
        LOOP_MT_32("fuse_loop_mt_32"),
        /** 3.10 and 3.11: the default {@code fuse_loop_mt@@FUSE_3.2} takes the v1 struct. */
        LOOP_MT_DEFAULT_32("fuse_loop_mt");

        public final String symbol;

        LoopSymbol(String symbol) { this.symbol = symbol; }

        public boolean usesConfigObject() { return this == LOOP_MT_312 || this == LOOP_MT_DEFAULT_312; }
    }

    /** Every symbol whose presence {@link #select} looks at. */
    public static final Set<String> PROBED = Set.of(
            NewSymbol.FUSE_NEW_317.symbol, NewSymbol.FUSE_NEW_31.symbol, NewSymbol.FUSE_NEW.symbol,
            "fuse_loop_cfg_create", LoopSymbol.LOOP_MT_312.symbol, LoopSymbol.LOOP_MT_DEFAULT_312.symbol,
            LoopSymbol.LOOP_MT_32.symbol);

    private static final Pattern RELEASE = Pattern.compile("(\\d+)\\.(\\d+)(?:\\.(\\d+))?.*");

    /**
     * Chooses the entry points for a release, given its {@code fuse_pkgversion()} string (e.g.
     * "3.18.3"), its {@code fuse_version()} (e.g. 318) and which symbol names the library resolves.
     *
     * @throws UnsupportedOperationException (with the reason and the fix) if the version is too old,
     *         cannot be read, or a needed symbol is missing
     */
    public static LibFuseVersion select(String packageVersion, int apiVersion, Set<String> symbols) {
        Matcher m = RELEASE.matcher(packageVersion == null ? "" : packageVersion.trim());
        if (!m.matches()) {
            throw new UnsupportedOperationException("cannot tell which libfuse release this is: fuse_pkgversion() says '"
                    + packageVersion + "' (fuse_version() " + apiVersion + ")");
        }
        int major = Integer.parseInt(m.group(1));
        int minor = Integer.parseInt(m.group(2));
        int patch = m.group(3) == null ? 0 : Integer.parseInt(m.group(3));
        if (major * 100 + minor != apiVersion) {
            throw new UnsupportedOperationException("libfuse contradicts itself: fuse_pkgversion() says '"
                    + packageVersion + "' but fuse_version() says " + apiVersion);
        }
        if (major != 3 || major * 100 + minor < MINIMUM) {
            throw new UnsupportedOperationException(String.format(
                    "libfuse %s is %s: fuse-panama needs libfuse 3.10 or newer within major version 3. "
                            + "Install fuse3 (Debian/Ubuntu: apt-get install fuse3) "
                            + "or point -Dfusepanama.libfuse at a libfuse3.so.4 or libfuse3.so.3.",
                    packageVersion, major > 3 ? "a major version this build does not know" : "too old"));
        }
        boolean v317 = minor >= 17;
        NewSymbol newSymbol;
        if (v317 && symbols.contains(NewSymbol.FUSE_NEW_317.symbol)) {
            newSymbol = NewSymbol.FUSE_NEW_317;
        } else if (symbols.contains(NewSymbol.FUSE_NEW_31.symbol)) {
            newSymbol = NewSymbol.FUSE_NEW_31;
        } else if (!v317 && symbols.contains(NewSymbol.FUSE_NEW.symbol)) {
            newSymbol = NewSymbol.FUSE_NEW;
        } else {
            throw missing(packageVersion, "fuse_new");
        }
        LoopSymbol loop;
        if (minor >= 12 && symbols.contains("fuse_loop_cfg_create")) {
            if (symbols.contains(LoopSymbol.LOOP_MT_312.symbol)) {
                loop = LoopSymbol.LOOP_MT_312;
            } else if (symbols.contains(LoopSymbol.LOOP_MT_DEFAULT_312.symbol)) {
                loop = LoopSymbol.LOOP_MT_DEFAULT_312;
            } else {
                throw missing(packageVersion, "fuse_loop_mt");
            }
        } else if (symbols.contains(LoopSymbol.LOOP_MT_32.symbol)) {
            loop = LoopSymbol.LOOP_MT_32;
        } else if (minor < 12 && symbols.contains(LoopSymbol.LOOP_MT_DEFAULT_32.symbol)) {
            loop = LoopSymbol.LOOP_MT_DEFAULT_32;
        } else {
            throw missing(packageVersion, "fuse_loop_mt");
        }
        return new LibFuseVersion(major, minor, patch, newSymbol, loop);
    }

    /** Whether this release is {@code major.minor.patch} or later. */
    public boolean atLeast(int major, int minor, int patch) {
        return Integer.compare(this.major, major) != 0 ? this.major > major
                : Integer.compare(this.minor, minor) != 0 ? this.minor > minor
                : this.patch >= patch;
    }

    /** What {@code fuse_version()} returns, e.g. 318. */
    public int api() {
        return major * 100 + minor;
    }

    /** Whether this release is newer than any whose headers the bindings were checked against. */
    public boolean newerThanKnown() {
        return api() > NEWEST_KNOWN;
    }

    /** Capabilities in the 64-bit {@code want_ext}/{@code capable_ext} (3.17+). */
    public boolean wantExt() {
        return atLeast(3, 17, 0);
    }

    @Override
    public String toString() {
        return major + "." + minor + "." + patch;
    }

    private static UnsupportedOperationException missing(String release, String what) {
        return new UnsupportedOperationException(String.format(
                "libfuse %s does not export a usable %s; this build of libfuse3 is not supported", release, what));
    }
}
