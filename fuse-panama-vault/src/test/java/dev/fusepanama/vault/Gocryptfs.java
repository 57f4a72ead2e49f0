package dev.fusepanama.vault;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.fusepanama.testkit.TestMount;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * The real gocryptfs (Debian's package), run as a program: it makes vaults and mounts them, so
 * that what we write is checked by an implementation we did not write. Every mount is undone
 * by {@link #close()}, also after a failed test.
 */
final class Gocryptfs implements AutoCloseable {
    static final Path BINARY = Path.of("/usr/bin/gocryptfs");

    private final Path mountpoint;

    private Gocryptfs(Path mountpoint) {
        this.mountpoint = mountpoint;
    }

    /** Skips the test with the reason if gocryptfs is not installed (./test installs it). */
    static void assumeInstalled() {
        Assumptions.assumeTrue(Files.isExecutable(BINARY), "gocryptfs is not installed (apt-get install gocryptfs)");
    }

    /** {@code gocryptfs -init} with a low scrypt cost, the password from {@code passfile}. */
    static void init(Path cipherDir, Path passfile) throws IOException, InterruptedException {
        run(List.of(BINARY.toString(), "-q", "-init", "-scryptn", "10", "-passfile", passfile.toString(), cipherDir.toString()));
    }

    /** Mounts {@code cipherDir} at a new temporary directory; gocryptfs returns once the mount is up. */
    static Gocryptfs mount(Path cipherDir, Path passfile) throws IOException, InterruptedException {
        Path at = Files.createTempDirectory("gocryptfs-mnt-");
        try {
            run(List.of(BINARY.toString(), "-q", "-passfile", passfile.toString(), cipherDir.toString(), at.toString()));
        } catch (IOException | RuntimeException | AssertionError e) {
            Files.deleteIfExists(at);
            throw e;
        }
        return new Gocryptfs(at);
    }

    Path root() {
        return mountpoint;
    }

    private static void run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("timed out: " + command);
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), () -> String.join(" ", command) + " failed:\n" + out);
    }

    @Override
    public void close() throws IOException, InterruptedException {
        List<String> umount = new ArrayList<>(List.of("fusermount3", "-u", mountpoint.toString()));
        Process p = new ProcessBuilder(umount).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (!p.waitFor(20, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            TestMount.forceUnmount(mountpoint);
        }
        Files.deleteIfExists(mountpoint);
    }
}
