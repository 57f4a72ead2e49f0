package dev.fusepanama.testkit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Counts the requests the kernel sends to one FUSE mount, by opcode, from the kernel's own
 * {@code fuse:fuse_request_send} tracepoint (recent kernels; 6.18 has it): what the kernel asked, including what
 * libfuse answered without calling the filesystem. Each trace is a private tracefs instance
 * filtered to the mount's connection, so traces of other mounts and other test JVMs do not mix.
 * Needs root; tracefs is mounted at {@code /sys/kernel/tracing} if it is not yet.
 *
 * <pre>{@code
 * try (RequestTrace trace = RequestTrace.start(mountpoint)) {
 *     Files.list(mountpoint).count();
 *     assertEquals(0, trace.counts().getOrDefault("OPENDIR", 0L));
 * }
 * }</pre>
 */
public final class RequestTrace implements AutoCloseable {
    private static final Path TRACEFS = Path.of("/sys/kernel/tracing");
    private static final Pattern SENT = Pattern.compile("fuse_request_send: connection (\\d+) req \\d+ opcode \\d+ \\(FUSE_(\\w+)\\)");

    private final Path instance;
    private final int connection;

    private RequestTrace(Path instance, int connection) {
        this.instance = instance;
        this.connection = connection;
    }

    /** {@return whether this kernel has the tracepoint} (tracefs mounted or mountable, event present). */
    public static boolean available() {
        try {
            return Files.isDirectory(tracefs().resolve("events/fuse/fuse_request_send"));
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    /**
     * Starts counting the requests sent to the FUSE filesystem mounted at {@code mountpoint}. It
     * first removes the trace instances that test JVMs killed before closing theirs left behind.
     *
     * @param mountpoint where the filesystem is mounted
     * @return the trace, counting from now; close it to free the kernel's buffers
     * @throws IOException if no FUSE filesystem is mounted there, the kernel has no such tracepoint,
     *     or tracefs is not writable (not root)
     * @throws InterruptedException if interrupted while tracefs is mounted
     */
    public static RequestTrace start(Path mountpoint) throws IOException, InterruptedException {
        int connection = connectionOf(mountpoint);
        Path root = tracefs();
        if (!Files.isDirectory(root.resolve("events/fuse/fuse_request_send"))) {
            throw new IOException("this kernel has no fuse:fuse_request_send tracepoint");
        }
        removeOrphans(root.resolve("instances"));
        Path instance = root.resolve("instances/" + PREFIX + ProcessHandle.current().pid() + "-" + System.nanoTime());
        Files.createDirectory(instance);
        RequestTrace trace = new RequestTrace(instance, connection);
        try {
            Path event = instance.resolve("events/fuse/fuse_request_send");
            Files.writeString(instance.resolve("buffer_size_kb"), "8192");
            Files.writeString(event.resolve("filter"), "connection == " + connection);
            Files.writeString(event.resolve("enable"), "1");
            Files.writeString(instance.resolve("tracing_on"), "1");
        } catch (IOException e) {
            try {
                trace.close();
            } catch (IOException closing) {
                e.addSuppressed(closing);
            }
            throw e;
        }
        return trace;
    }

    private static final String PREFIX = "fuse-panama-";

    /** Removes the instances of test JVMs that ended without closing theirs (killed), each holding a buffer per CPU. */
    private static void removeOrphans(Path instances) throws IOException {
        try (Stream<Path> all = Files.list(instances)) {
            for (Path p : all.toList()) {
                String name = p.getFileName().toString();
                if (!name.startsWith(PREFIX)) continue;
                String[] parts = name.substring(PREFIX.length()).split("-");
                try {
                    long pid = Long.parseLong(parts[0]);
                    if (ProcessHandle.of(pid).isEmpty()) Files.deleteIfExists(p);
                } catch (NumberFormatException | IOException notOurs) {
                    // another tool's instance of the same name, or removed meanwhile: left alone
                }
            }
        }
    }

    /**
     * The requests sent since {@link #start} or the last {@link #reset}.
     *
     * @return the number sent of each opcode, by name without {@code FUSE_} ("LOOKUP", "GETATTR"),
     *     in the names' order; an opcode never sent is absent
     * @throws IOException if the trace cannot be read, or the kernel lost events (its buffer was full)
     */
    public Map<String, Long> counts() throws IOException {
        Map<String, Long> counts = new TreeMap<>();
        List<String> lines = Files.readAllLines(instance.resolve("trace"), StandardCharsets.UTF_8);
        for (String line : lines) {
            Matcher m = SENT.matcher(line);
            if (m.find() && Integer.parseInt(m.group(1)) == connection) {
                counts.merge(m.group(2), 1L, Long::sum);
            }
            if (line.contains("LOST") && line.contains("EVENTS")) {
                throw new IOException("the trace lost events: " + line.trim());
            }
        }
        return counts;
    }

    /**
     * How many requests of one opcode were sent since {@link #start} or the last {@link #reset}.
     *
     * @param opcode its name without {@code FUSE_}, such as "OPENDIR"
     * @return the number, 0 if none
     * @throws IOException as {@link #counts()}
     */
    public long count(String opcode) throws IOException {
        return counts().getOrDefault(opcode, 0L);
    }

    /**
     * {@return all requests sent since {@link #start} or the last {@link #reset}, of every kind}
     *
     * @throws IOException as {@link #counts()}
     */
    public long total() throws IOException {
        return counts().values().stream().mapToLong(Long::longValue).sum();
    }

    /**
     * Forgets what was counted so far.
     *
     * @throws IOException if the trace cannot be cleared
     */
    public void reset() throws IOException {
        Files.writeString(instance.resolve("trace"), "");
    }

    /**
     * Stops the trace and removes its tracefs instance, with the kernel's buffers.
     *
     * @throws IOException if the instance cannot be removed
     */
    @Override
    public void close() throws IOException {
        try {
            Files.writeString(instance.resolve("tracing_on"), "0");
            Files.writeString(instance.resolve("events/fuse/fuse_request_send/enable"), "0");
        } catch (IOException ignored) {
            // removing the instance below turns it off as well
        }
        Files.deleteIfExists(instance);
    }

    /**
     * The connection number the tracepoint reports for the mount: its device number, minor only
     * (FUSE mounts take an anonymous device of major 0), from /proc/self/mountinfo.
     */
    static int connectionOf(Path mountpoint) throws IOException {
        String target = mountpoint.toRealPath().toString();
        int found = -1;
        for (String line : Files.readAllLines(Path.of("/proc/self/mountinfo"))) {
            String[] f = line.split(" ");
            if (f.length > 4 && unescape(f[4]).equals(target)) {
                String[] dev = f[2].split(":");
                // The last mount at the path is the visible one; a FUSE mount has an anonymous device (major 0).
                found = line.contains(" - fuse.") || line.contains(" - fuse ") ? (dev[0].equals("0") ? Integer.parseInt(dev[1]) : -2) : -1;
            }
        }
        if (found == -2) throw new IOException("the FUSE filesystem at " + target + " has no anonymous device (fuseblk?)");
        if (found < 0) throw new IOException("no FUSE filesystem is mounted at " + target);
        return found;
    }

    private static String unescape(String field) {
        return field.replace("\\040", " ").replace("\\011", "\t").replace("\\012", "\n").replace("\\134", "\\");
    }

    private static Path tracefs() throws IOException, InterruptedException {
        if (Files.isDirectory(TRACEFS.resolve("instances"))) return TRACEFS;
        Process p = new ProcessBuilder("mount", "-t", "tracefs", "nodev", TRACEFS.toString()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("mounting tracefs timed out");
        }
        String out = "mount exited with " + p.exitValue();
        if (!Files.isDirectory(TRACEFS.resolve("instances"))) {
            throw new IOException("tracefs is not available at " + TRACEFS + " (it needs root): " + out);
        }
        return TRACEFS;
    }
}
