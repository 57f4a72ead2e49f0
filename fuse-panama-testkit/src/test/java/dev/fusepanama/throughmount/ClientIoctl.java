package dev.fusepanama.throughmount;

import dev.fusepanama.Posix;
import dev.fusepanama.testkit.Emulation;
import dev.fusepanama.testkit.Os;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * ioctl(2) on a file of a mount, as a program makes it. A JVM run under qemu-user
 * ({@link Emulation}) cannot make it itself: qemu passes on only the requests it knows. There a
 * native python3 makes the call, so the request still reaches the emulated filesystem from a real
 * process, as it would on the machine.
 */
final class ClientIoctl {
    private ClientIoctl() {}

    private static final boolean EMULATED = Emulation.active();

    /** The result of a call: its return value or {@code -errno}, and the int its argument points to afterwards. */
    record Result(int rc, int value) {}

    /** {@code ioctl(fd, cmd, &value)} on {@code file} opened read-only, with a 4-byte argument read and written. */
    static Result withIntPointer(Path file, long cmd, int value) throws Exception {
        if (EMULATED) {
            return python(file, cmd, "pointer", value);
        }
        int fd = Os.open(Os.bytes(file), Posix.O_RDONLY, 0);
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocateFrom(ValueLayout.JAVA_INT, value);
            int rc = Os.ioctl(fd, cmd, v);
            return new Result(rc, v.get(ValueLayout.JAVA_INT, 0));
        } finally {
            Os.close(fd);
        }
    }

    /** {@code ioctl(fd, cmd, arg)} on {@code file} opened read-only, with the argument passed as a value. */
    static int withValue(Path file, long cmd, int arg) throws Exception {
        if (EMULATED) {
            return python(file, cmd, "value", arg).rc();
        }
        int fd = Os.open(Os.bytes(file), Posix.O_RDONLY, 0);
        try {
            return Os.ioctl(fd, cmd, MemorySegment.ofAddress(arg));
        } finally {
            Os.close(fd);
        }
    }

    private static final String SCRIPT = """
            import fcntl, os, struct, sys
            path, cmd, kind, value = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
            fd = os.open(path, os.O_RDONLY)
            try:
                if kind == "pointer":
                    buf = bytearray(struct.pack("=i", value))
                    rc = fcntl.ioctl(fd, cmd, buf, True)
                    value = struct.unpack("=i", buf)[0]
                else:
                    rc = fcntl.ioctl(fd, cmd, value)
            except OSError as e:
                rc = -e.errno
            print(rc, value)
            """;

    private static Result python(Path file, long cmd, String kind, int value) throws Exception {
        Process p = new ProcessBuilder(List.of("python3", "-c", SCRIPT, file.toString(), Long.toString(cmd), kind,
                Integer.toString(value))).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new AssertionError("python3's ioctl failed: " + out);
        }
        String[] f = out.split(" ");
        return new Result(Integer.parseInt(f[0]), Integer.parseInt(f[1]));
    }
}
