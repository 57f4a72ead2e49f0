package dev.fusepanama.examples.mirror;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** A {@code fuse-panama mirror} process a test started, logging to a file: waiting for its mount, stopping it as a user does. */
final class MirrorProcess {
    private MirrorProcess() {}

    /** Waits for the start-up line, written once it serves (the kernel lists the mount a little earlier). */
    static void awaitMount(Process p, Path at, Path log) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!(mounted(at) && Files.readString(log, StandardCharsets.UTF_8).contains(" mounted at " + at))
                && p.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertTrue(mounted(at) && Files.readString(log, StandardCharsets.UTF_8).contains(" mounted at " + at),
                "mounted: " + Files.readString(log, StandardCharsets.UTF_8));
    }

    /** SIGTERM, as Ctrl-C: a clean unmount and exit status 0. */
    static void stop(Process p, Path at, Path log) throws Exception {
        p.destroy();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "exited: " + Files.readString(log, StandardCharsets.UTF_8));
        assertEquals(0, p.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
        assertTrue(!mounted(at), "unmounted");
    }

    /** Leaves nothing behind, whatever failed. */
    static void kill(Process p, Path at) throws Exception {
        p.destroyForcibly();
        p.waitFor(30, TimeUnit.SECONDS);
        if (mounted(at)) {
            new ProcessBuilder("fusermount3", "-u", "-z", at.toString()).inheritIO().start().waitFor(30, TimeUnit.SECONDS);
        }
    }

    static boolean mounted(Path at) throws IOException {
        return Files.readAllLines(Path.of("/proc/self/mounts")).stream().anyMatch(l -> l.split(" ")[1].equals(at.toString()));
    }
}
