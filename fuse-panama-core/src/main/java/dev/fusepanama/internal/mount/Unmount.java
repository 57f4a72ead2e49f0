package dev.fusepanama.internal.mount;

import dev.fusepanama.Errno;
import dev.fusepanama.libc.Libc;
import dev.fusepanama.libc.ThreadContext;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Asks the kernel to unmount. As root, {@code umount2} directly, so EBUSY comes back as an
 * answer (libfuse's own fuse_unmount always detaches lazily, hiding it). Otherwise through
 * the setuid {@code fusermount3 -u}, whose message tells busy from other failures.
 */
final class Unmount {
    private Unmount() {}

    /** 0 on success, else a negative errno (the library's convention for an int result, see the package documentation). */
    static int unmount(Path mountpoint, boolean lazy) {
        if (Libc.geteuid() == 0) {
            try (Arena arena = Arena.ofConfined()) {
                return ThreadContext.umount2(arena.allocateFrom(mountpoint.toString()), lazy ? ThreadContext.MNT_DETACH : 0);
            }
        }
        List<String> command = new ArrayList<>(List.of("fusermount3", "-u", "-q"));
        if (lazy) {
            command.add("-z");
        }
        command.add(mountpoint.toString());
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return -Errno.ETIMEDOUT;
            }
            if (p.exitValue() == 0) {
                return 0;
            }
            if (out.contains("busy")) return -Errno.EBUSY;
            if (out.contains("not mounted") || out.contains("not found in")) return -Errno.EINVAL;
            return -Errno.EIO;
        } catch (IOException e) {
            return -Errno.ENOENT;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -Errno.EINTR;
        }
    }
}
