package dev.fusepanama.testkit;

import dev.fusepanama.Errno;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * The fuse module's {@code enable_uring} parameter, for tests of FUSE-over-io_uring: turned on
 * (as root) for a test and put back as it was found. It is read when a mount registers its rings,
 * so it only decides mounts made while it is on.
 *
 * <p>Whether a mount asking for io_uring gets it is decided by the kernel, not by the parameter:
 * a kernel may have the parameter on and still answer the rings' registration with EOPNOTSUPP
 * (libfuse then reports "failed to start io-uring: ... -95" and serves /dev/fuse), as CI's kernel
 * did on 2026-11-28. {@link #ringsOf} therefore judges each mount by its own account.
 */
public final class UringSwitch implements AutoCloseable {
    /** The parameter's file in sysfs: "Y" or "N" as the kernel shows it, "1" or "0" as written; absent where the fuse module has none. */
    public static final Path PARAMETER = Path.of("/sys/module/fuse/parameters/enable_uring");

    private final String before;

    private UringSwitch(String before) {
        this.before = before;
    }

    /**
     * Sets the parameter to {@code on} where this process may (root, a kernel that has it); otherwise changes nothing.
     *
     * @param on whether io_uring is to be allowed
     * @return what puts the parameter back as it was, when closed (nothing to put back where it changed nothing)
     * @throws IOException if the parameter is writable but cannot be read or written
     */
    public static UringSwitch set(boolean on) throws IOException {
        if (!Files.isWritable(PARAMETER)) {
            return new UringSwitch(null);
        }
        String before = Files.readString(PARAMETER).trim();
        Files.writeString(PARAMETER, on ? "1" : "0");
        return new UringSwitch(before);
    }

    /** {@return whether the parameter is on now}: false where it cannot be read. */
    public static boolean isOn() {
        try {
            String v = Files.readString(PARAMETER).trim();
            return v.equals("Y") || v.equals("1");
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Whether the mount a test asked io_uring of has it, checked against what libfuse and the
     * parameter allow: a mount may not claim rings libfuse (3.18+) or the parameter cannot give, and
     * where both allow them it must have them unless the kernel refused ({@link #kernelRefusal(String)}).
     * Any other reason fails the test. Decided per mount, not once: where the kernel refuses, it
     * refuses each mount on its own.
     *
     * @param describe the mount's {@code Mount.describe()}
     * @return whether the mount is served over io_uring
     * @throws AssertionError if the mount has rings it cannot have, or lacks them for a reason other than the kernel's
     * @throws IOException if libfuse cannot be loaded
     */
    public static boolean ringsOf(String describe) throws IOException {
        boolean rings = describe.contains("transport io_uring");
        boolean allowed = TestMount.libfuseAtLeast(3, 18) && isOn();
        if (rings && !allowed) {
            throw new AssertionError("io_uring claimed where libfuse or enable_uring has none: " + describe);
        }
        if (!rings && allowed && kernelRefusal(describe) == null) {
            throw new AssertionError("libfuse 3.18+ and enable_uring, yet no io_uring, and not for the kernel's refusal: " + describe);
        }
        return rings;
    }

    /**
     * libfuse's account of a kernel that refused the rings' registration: "failed to start
     * io-uring: Unknown error -95" (EOPNOTSUPP, as the kernel answers when FUSE-over-io_uring is
     * off or absent at registration) or ENOTSUP's name, or a kernel that did not offer it in init.
     */
    private static final Pattern REFUSED = Pattern.compile(
            "no io_uring: (the kernel did not offer it in init|libfuse could not start its queues \\(failed to start io-uring: "
                    + "(Unknown error -?" + Errno.EOPNOTSUPP + "|Operation not supported)\\))");

    /**
     * The kernel's refusal in a mount's {@code describe()}, if that is why the mount serves
     * /dev/fuse.
     *
     * @param describe the mount's {@code Mount.describe()}
     * @return the refusal, to skip a test with; null if the mount has the rings, or did without them
     *     for any other reason (a reason the tests must not excuse)
     */
    public static String kernelRefusal(String describe) {
        var m = REFUSED.matcher(describe);
        return m.find() ? "the kernel refuses FUSE-over-io_uring: " + m.group(1) : null;
    }

    /**
     * {@return how many of this process's threads are libfuse's io_uring queue threads ({@code fuse-ring-N})}
     *
     * @throws IOException if /proc/self/task cannot be listed
     */
    public static long ringThreads() throws IOException {
        try (var tasks = Files.list(Path.of("/proc/self/task"))) {
            return tasks.filter(t -> {
                try {
                    return Files.readString(t.resolve("comm")).startsWith("fuse-ring");
                } catch (IOException e) {
                    return false; // the thread ended meanwhile
                }
            }).count();
        }
    }

    /**
     * Puts the parameter back as {@link #set} found it; does nothing where {@link #set} changed nothing.
     *
     * @throws IOException if the parameter cannot be written
     */
    @Override
    public void close() throws IOException {
        if (before != null) {
            Files.writeString(PARAMETER, before.equals("Y") ? "1" : before.equals("N") ? "0" : before);
        }
    }
}
