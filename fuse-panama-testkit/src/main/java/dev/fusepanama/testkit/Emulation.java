package dev.fusepanama.testkit;

/**
 * Whether this JVM runs under qemu-user, as ./test runs the arm64 suites on an x86-64 machine
 * ({@value #ENVIRONMENT} names the command that runs the emulated architecture's programs then).
 *
 * <p>Such a JVM is an arm64 program on an x86-64 kernel, and three things differ from a real
 * arm64 machine, which the checks that meet them take into account, each saying so:
 * <ul>
 *   <li>qemu passes on only the ioctl requests it knows: a filesystem's own answer ENOTTY (7.2:
 *       ENOSYS) before they reach the kernel;
 *   <li>system calls newer than the emulator answer ENOSYS (qemu 10 and 11 have no
 *       {@code getxattrat} family, Linux 6.13), and so does {@code fanotify_init}, which qemu
 *       does not emulate: a source watcher falls back to inotify;
 *   <li>the kernel's FUSE requests carry the kernel's own numbering of the open flags that differ
 *       between the two ({@code O_DIRECT}, {@code O_DIRECTORY}, {@code O_NOFOLLOW},
 *       {@code O_LARGEFILE}): a filesystem that passes a client's open flags on reads them as
 *       arm64's.
 * </ul>
 */
public final class Emulation {
    private Emulation() {}

    /**
     * The command prefix that runs this JVM's architecture's programs here, e.g.
     * {@code qemu-aarch64 -L SYSROOT}: ./test sets it only for an emulated JVM, and the core's
     * layout test runs its cross-compiled probe with it.
     */
    public static final String ENVIRONMENT = "FUSE_PANAMA_RUN";

    /** {@return whether the tests run in an emulated JVM of another architecture than the kernel's}: {@value #ENVIRONMENT} is set and not blank. */
    public static boolean active() {
        String run = System.getenv(ENVIRONMENT);
        return run != null && !run.isBlank();
    }
}
