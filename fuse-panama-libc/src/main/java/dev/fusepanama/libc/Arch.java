package dev.fusepanama.libc;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * The processor architectures fuse-panama runs on, and what differs between them in the C
 * interface it binds, chosen once from the architecture of the running JVM.
 *
 * <p>Linux keeps most of its user interface the same on every 64-bit architecture: errno values,
 * the ioctl encoding, {@code struct statvfs}, {@code struct flock}, every libfuse struct, and the
 * system call numbers from 424 on. What differs is listed here and nowhere else: four
 * {@code open(2)} flags that arm64 numbers as 32-bit ARM does (x86-64 and riscv64 use
 * asm-generic's fcntl.h), {@code struct stat} (x86-64 has its own, the others asm-generic's: the core's
 * {@code structs.stat} reads both), and the numbers of the older system calls the bindings make without a libc
 * wrapper (x86-64 has its own table, the others asm-generic's). LayoutTest checks each against
 * the C compiler of the architecture it runs on.
 *
 * <p>A JVM on any other architecture is refused when libfuse is loaded
 * ({@link UnsupportedArchitectureException}, which a mount reports as
 * {@code MountException.Reason.UNSUPPORTED_ARCHITECTURE}), never served with a guess. Its
 * constants ({@code Posix}, {@code Libc}) are asm-generic's, so that reading them is not an error.
 */
public enum Arch {
    /** x86-64 (amd64): the generic open flags; its own {@code struct stat} and system call table. */
    X86_64("x86-64", 040000, 0200000, 0400000, 262, 5, 259, 144),
    /** AArch64 (arm64): 32-bit ARM's open flags; the generic {@code struct stat} and system call table. */
    AARCH64("aarch64", 0200000, 040000, 0100000, 79, 80, 33, 128),
    /** RISC-V 64 (riscv64): the generic open flags, {@code struct stat} and system call table. */
    RISCV64("riscv64", 040000, 0200000, 0400000, 79, 80, 33, 128);

    /** The name users know it by, as in error messages. */
    public final String displayName;
    /** {@code O_DIRECT} (fcntl.h). */
    public final int oDirect;
    /** {@code O_DIRECTORY}. */
    public final int oDirectory;
    /** {@code O_NOFOLLOW}. */
    public final int oNofollow;
    /** {@code SYS_newfstatat} (sys/syscall.h): {@link Libc#fstatat} on glibc before 2.33, which has no symbol for it. */
    public final long sysNewfstatat;
    /** {@code SYS_fstat}: {@link Libc#fstat} on glibc before 2.33. */
    public final long sysFstat;
    /** {@code SYS_mknodat}: {@link Libc#mknodat} on glibc before 2.33. */
    public final long sysMknodat;
    /** {@code sizeof(struct stat)}: the room {@link Libc#fstatat} and {@link Libc#fstat} fill. */
    public final int statSize;

    Arch(String displayName, int oDirect, int oDirectory, int oNofollow, long sysNewfstatat, long sysFstat,
         long sysMknodat, int statSize) {
        this.displayName = displayName;
        this.oDirect = oDirect;
        this.oDirectory = oDirectory;
        this.oNofollow = oNofollow;
        this.sysNewfstatat = sysNewfstatat;
        this.sysFstat = sysFstat;
        this.sysMknodat = sysMknodat;
        this.statSize = statSize;
    }

    /** The {@code os.arch} of this JVM, read once. */
    private static final String OS_ARCH = System.getProperty("os.arch", "");
    /** The {@code os.name} of this JVM, read once: the layouts and constants here are Linux's. */
    private static final String OS_NAME = System.getProperty("os.name", "");
    private static final Arch DETECTED = of(OS_NAME, OS_ARCH);

    /**
     * The architecture this JVM runs on.
     *
     * @return the architecture, never null
     * @throws UnsupportedArchitectureException on any other than those of this enum
     */
    public static Arch current() {
        if (DETECTED == null) {
            throw new UnsupportedArchitectureException(unsupported(OS_NAME, OS_ARCH));
        }
        return DETECTED;
    }

    /**
     * Where the constants come from: this JVM's architecture, or for one fuse-panama does not
     * support, the generic tables (riscv64's), which nothing uses for a mount there.
     *
     * @return the architecture, never null; unlike {@link #current()} it does not throw
     */
    public static Arch constants() {
        return DETECTED == null ? RISCV64 : DETECTED;
    }

    /**
     * The architecture of a JVM on {@code osName} ({@code os.name}) that Java calls {@code osArch}
     * ({@code os.arch}), or null if fuse-panama does not support it: any system but Linux (macOS
     * on arm64 is no Linux arm64: its structs, constants and libfuse's differ; docs/PORTING.md).
     */
    static Arch of(String osName, String osArch) {
        return osName.equals("Linux") ? of(osArch) : null;
    }

    /** The architecture Java calls {@code osArch} ({@code os.arch}) on Linux, or null if fuse-panama does not support it. */
    static Arch of(String osArch) {
        return switch (osArch) {
            case "amd64", "x86_64" -> X86_64;
            case "aarch64", "arm64" -> AARCH64;
            case "riscv64" -> RISCV64;
            default -> null;
        };
    }

    /** The message for a JVM on a system or architecture fuse-panama does not support. */
    static String unsupported(String osName, String osArch) {
        if (!osName.equals("Linux")) {
            return "fuse-panama supports Linux only; this JVM runs on " + (osName.isEmpty() ? "an unknown system" : osName)
                    + " (os.name), whose struct layouts, constants and FUSE library differ (see docs/PORTING.md)";
        }
        return unsupported(osArch);
    }

    /** The message for a JVM on Linux on an architecture fuse-panama does not support. */
    static String unsupported(String osArch) {
        return "fuse-panama supports Linux on " + Arrays.stream(values()).map(a -> a.displayName)
                .collect(Collectors.joining(", ")) + "; this JVM is " + (osArch.isEmpty() ? "of unknown architecture" : osArch)
                + " (os.arch), whose struct layouts and system call numbers fuse-panama does not know";
    }

    /** A JVM on an architecture whose struct layouts and constants fuse-panama does not know. */
    public static final class UnsupportedArchitectureException extends UnsupportedOperationException {
        private static final long serialVersionUID = 1L;

        UnsupportedArchitectureException(String message) {
            super(message);
        }
    }
}
