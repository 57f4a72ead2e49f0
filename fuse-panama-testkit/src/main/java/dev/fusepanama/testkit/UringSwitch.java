package dev.fusepanama.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The fuse module's {@code enable_uring} parameter, for tests of FUSE-over-io_uring: turned on
 * (as root) for a test and put back as it was found. It is read when a mount registers its rings,
 * so it only decides mounts made while it is on.
 */
public final class UringSwitch implements AutoCloseable {
    public static final Path PARAMETER = Path.of("/sys/module/fuse/parameters/enable_uring");

    private final String before;

    private UringSwitch(String before) {
        this.before = before;
    }

    /** Sets the parameter to {@code on} where this process may (root, a kernel that has it); otherwise changes nothing. */
    public static UringSwitch set(boolean on) throws IOException {
        if (!Files.isWritable(PARAMETER)) {
            return new UringSwitch(null);
        }
        String before = Files.readString(PARAMETER).trim();
        Files.writeString(PARAMETER, on ? "1" : "0");
        return new UringSwitch(before);
    }

    /** Whether the parameter is on now. */
    public static boolean isOn() {
        try {
            String v = Files.readString(PARAMETER).trim();
            return v.equals("Y") || v.equals("1");
        } catch (IOException e) {
            return false;
        }
    }

    /** Whether a mount asking for io_uring now gets it: libfuse 3.18+ and the parameter on. */
    public static boolean expected() throws IOException {
        return TestMount.libfuseAtLeast(3, 18) && isOn();
    }

    /** How many of this process's threads are libfuse's io_uring queue threads ({@code fuse-ring-N}). */
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

    @Override
    public void close() throws IOException {
        if (before != null) {
            Files.writeString(PARAMETER, before.equals("Y") ? "1" : before.equals("N") ? "0" : before);
        }
    }
}
