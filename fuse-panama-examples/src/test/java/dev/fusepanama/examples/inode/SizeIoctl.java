package dev.fusepanama.examples.inode;

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
 * {@code ioctl(fd, cmd, &value)} with a {@code size_t} argument on a file of a mount, as a
 * program makes it. Under qemu-user ({@link Emulation}), which passes on only the requests it
 * knows, a native python3 makes the call instead, so it still reaches the filesystem from a real
 * process.
 */
final class SizeIoctl {
    private SizeIoctl() {}

    /** The call's return value or {@code -errno}, and the {@code size_t} its argument holds afterwards. */
    record Result(int rc, long value) {}

    static Result call(Path file, int cmd, long value) throws Exception {
        if (Emulation.active()) {
            return python(file, cmd, value);
        }
        int fd = Os.open(Os.bytes(file), Posix.O_RDONLY, 0);
        if (fd < 0) {
            throw new AssertionError("open " + file + ": " + fd);
        }
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocateFrom(ValueLayout.JAVA_LONG, value);
            int rc = Os.ioctl(fd, cmd & 0xFFFFFFFFL, v);
            return new Result(rc, v.get(ValueLayout.JAVA_LONG, 0));
        } finally {
            Os.close(fd);
        }
    }

    private static final String SCRIPT = """
            import fcntl, os, struct, sys
            path, cmd, value = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
            fd = os.open(path, os.O_RDONLY)
            buf = bytearray(struct.pack("=Q", value))
            try:
                rc = fcntl.ioctl(fd, cmd, buf, True)
            except OSError as e:
                rc = -e.errno
            print(rc, struct.unpack("=Q", buf)[0])
            """;

    private static Result python(Path file, int cmd, long value) throws Exception {
        Process p = new ProcessBuilder(List.of("python3", "-c", SCRIPT, file.toString(), Long.toString(cmd & 0xFFFFFFFFL),
                Long.toString(value))).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new AssertionError("python3's ioctl failed: " + out);
        }
        String[] f = out.split(" ");
        return new Result(Integer.parseInt(f[0]), Long.parseLong(f[1]));
    }
}
