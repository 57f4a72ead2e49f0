package dev.fusepanama.internal.bind;

import java.util.Set;

/**
 * Which libfuse entry points to call for a given installed version: a pure decision, unit-tested
 * for releases that are not installed on the build machine.
 *
 * <ul>
 *   <li>{@code fuse_new}: 3.17 made the default symbol {@code _fuse_new@@FUSE_3.17}, which takes an
 *       extra {@code struct libfuse_version *}; the 3.1 ABI stays available as {@code fuse_new_31}.
 *       Earlier releases export {@code fuse_new_31} (and {@code fuse_new@@FUSE_3.1}, the same
 *       function).</li>
 *   <li>{@code fuse_loop_mt}: 3.12 introduced the opaque {@code fuse_loop_cfg_*} config and
 *       {@code fuse_loop_mt_312}; 3.2 to 3.11 take the public v1 struct through
 *       {@code fuse_loop_mt_32}.</li>
 *   <li>capabilities: from 3.17 the 64-bit {@code want_ext} is authoritative, and setting both it
 *       and {@code want} is refused.</li>
 * </ul>
 *
 * @param version {@code fuse_version()}, e.g. 314 for 3.14
 */
public record LibFuseVersion(int version, NewSymbol newSymbol, LoopSymbol loopSymbol, boolean wantExt) {

    public static final int MINIMUM = 310;

    public enum NewSymbol {
        /** {@code struct fuse *_fuse_new(args, ops, size, struct libfuse_version *, data)}. */
        FUSE_NEW_317("_fuse_new"),
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
        /** {@code fuse_loop_mt_32(f, struct fuse_loop_config_v1 *)}. */
        LOOP_MT_32("fuse_loop_mt_32");

        public final String symbol;

        LoopSymbol(String symbol) { this.symbol = symbol; }

        public boolean usesConfigObject() { return this != LOOP_MT_32; }
    }

    /**
     * Chooses the entry points for {@code version}, given which symbol names the library resolves.
     *
     * @throws UnsupportedOperationException (with the reason and the fix) if the version is too old
     *         or a needed symbol is missing
     */
    public static LibFuseVersion select(int version, Set<String> symbols) {
        if (version < MINIMUM) {
            throw new UnsupportedOperationException(String.format(
                    "libfuse %s is too old: fuse-panama needs libfuse 3.10 or newer. "
                            + "Install a newer fuse3 (Debian/Ubuntu: apt-get install fuse3 libfuse3-3) "
                            + "or point -Dfusepanama.libfuse at a newer libfuse3.so.3.", display(version)));
        }
        NewSymbol newSymbol;
        if (version >= 317 && symbols.contains(NewSymbol.FUSE_NEW_317.symbol)) {
            newSymbol = NewSymbol.FUSE_NEW_317;
        } else if (symbols.contains(NewSymbol.FUSE_NEW_31.symbol)) {
            newSymbol = NewSymbol.FUSE_NEW_31;
        } else if (version < 317 && symbols.contains(NewSymbol.FUSE_NEW.symbol)) {
            newSymbol = NewSymbol.FUSE_NEW;
        } else {
            throw missing(version, "fuse_new");
        }
        LoopSymbol loop;
        if (version >= 312 && symbols.contains("fuse_loop_cfg_create")) {
            if (symbols.contains(LoopSymbol.LOOP_MT_312.symbol)) {
                loop = LoopSymbol.LOOP_MT_312;
            } else if (symbols.contains(LoopSymbol.LOOP_MT_DEFAULT_312.symbol)) {
                loop = LoopSymbol.LOOP_MT_DEFAULT_312;
            } else {
                throw missing(version, "fuse_loop_mt");
            }
        } else if (symbols.contains(LoopSymbol.LOOP_MT_32.symbol)) {
            loop = LoopSymbol.LOOP_MT_32;
        } else {
            throw missing(version, "fuse_loop_mt");
        }
        return new LibFuseVersion(version, newSymbol, loop, version >= 317);
    }

    /** 314 → "3.14". */
    public static String display(int version) {
        return (version / 100) + "." + (version % 100);
    }

    private static UnsupportedOperationException missing(int version, String what) {
        return new UnsupportedOperationException(String.format(
                "libfuse %s does not export a usable %s; this build of libfuse3 is not supported",
                display(version), what));
    }
}
