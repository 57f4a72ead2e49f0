package dev.fusepanama.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * A filesystem under test, mounted by a process of its own (this JVM is only the client), and
 * what the comparison reads of that process in /proc (proc(5)): CPU time, its JIT compiler
 * threads' share, peak RSS, idle libfuse workers. Closing it ends the process and makes sure the
 * mount is gone.
 */
final class FsProcess implements AutoCloseable {
    private static final long MOUNT_TIMEOUT_SECONDS = 30;

    private final Suite.Filesystem filesystem;
    private final Path mountpoint;
    private final Process process;
    private final Path proc;

    private FsProcess(Suite.Filesystem filesystem, Path mountpoint, Process process) {
        this.filesystem = filesystem;
        this.mountpoint = mountpoint;
        this.process = process;
        this.proc = Path.of("/proc", Long.toString(process.pid()));
    }

    /** Starts {@code fs} on a new mountpoint; {@link #awaitMount} waits for the mount. */
    static FsProcess start(Suite.Filesystem fs) throws IOException {
        Path mnt = Files.createTempDirectory(mountpointPrefix(fs));
        List<String> cmd = new ArrayList<>(fs.command());
        cmd.add(mnt.toString());
        try {
            return new FsProcess(fs, mnt, new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log(mnt).toFile()).start());
        } catch (IOException e) {
            Files.deleteIfExists(log(mnt));
            Files.deleteIfExists(mnt);
            throw e;
        }
    }

    /** The start of the name of {@code fs}'s mountpoints (a directory in /tmp): "bench-", its name's word characters, "-". */
    static String mountpointPrefix(Suite.Filesystem fs) {
        return "bench-" + fs.name().replaceAll("\\W", "") + "-";
    }

    /** Waits until the filesystem is mounted (polled every 2 ms), at most 30 s; fails with its output if it exits or does not mount. */
    void awaitMount() throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(MOUNT_TIMEOUT_SECONDS);
        while (!mounted()) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                String why = process.isAlive() ? "did not mount within " + MOUNT_TIMEOUT_SECONDS + " s"
                        : "exited with status " + process.exitValue() + " before mounting";
                throw new IllegalStateException(name() + " " + why + " (" + String.join(" ", filesystem.command()) + " " + mountpoint
                        + "); its output:\n" + Files.readString(log(mountpoint)));
            }
            Thread.sleep(2);
        }
    }

    /** The filesystem process's output, removed when it is closed. */
    private static Path log(Path mountpoint) {
        return mountpoint.resolveSibling(mountpoint.getFileName() + ".log");
    }

    Suite.Filesystem filesystem() {
        return filesystem;
    }

    String name() {
        return filesystem.name();
    }

    Path mountpoint() {
        return mountpoint;
    }

    /** What the process has printed so far. */
    String output() throws IOException {
        return Files.readString(log(mountpoint));
    }

    private boolean mounted() throws IOException {
        return mountType() != null;
    }

    /** The type of what is mounted on the mountpoint ("fuse.memfs", "tmpfs"), null if nothing is. */
    private String mountType() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/mounts"))) {
            // "SOURCE MOUNTPOINT TYPE OPTIONS 0 0"; /tmp paths of ours have no spaces to escape
            String[] f = line.split(" ");
            if (f.length > 2 && f[1].equals(mountpoint.toString())) return f[2];
        }
        return null;
    }

    /**
     * CPU time of every live thread, in ns (schedstat's first field), by thread id: compare two
     * readings with {@link #cpuBetween}. A thread that has exited is missing: {@link
     * #processCpuNanos} is the check.
     */
    Map<String, Long> cpuReading() throws IOException {
        return threadCpuNanos(false);
    }

    /** The same for the JIT compiler threads (HotSpot's "C1/C2 CompilerThreadN"); empty without a JVM. */
    Map<String, Long> jitCpuReading() throws IOException {
        return threadCpuNanos(true);
    }

    /**
     * CPU used between two readings: each thread's growth, a thread born meanwhile counted whole.
     * A thread that exited meanwhile loses only its CPU since {@code before} (subtracting two
     * sums would lose its whole life's).
     */
    static long cpuBetween(Map<String, Long> before, Map<String, Long> after) {
        long total = 0;
        for (Map.Entry<String, Long> t : after.entrySet()) {
            total += Math.max(0, t.getValue() - before.getOrDefault(t.getKey(), 0L));
        }
        return total;
    }

    boolean hasJit() throws IOException {
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(proc.resolve("task"))) {
            for (Path t : tasks) if (isCompilerThread(t)) return true;
        }
        return false;
    }

    private static boolean isCompilerThread(Path task) {
        try {
            return Files.readString(task.resolve("comm")).matches("C[12] CompilerThre(?s).*");
        } catch (IOException gone) {
            return false;
        }
    }

    private Map<String, Long> threadCpuNanos(boolean jitOnly) throws IOException {
        Map<String, Long> cpu = new HashMap<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(proc.resolve("task"))) {
            for (Path t : tasks) {
                if (jitOnly && !isCompilerThread(t)) continue;
                try {
                    cpu.put(t.getFileName().toString(), Long.parseLong(Files.readString(t.resolve("schedstat")).split(" ")[0]));
                } catch (IOException | NumberFormatException gone) {
                    // the thread ended between listing and reading
                }
            }
        }
        return cpu;
    }

    /**
     * The process's own CPU count (utime + stime of /proc/PID/stat), which keeps exited threads'
     * time, in ns. Its unit is USER_HZ, 100 per second on every architecture but alpha.
     */
    long processCpuNanos() throws IOException {
        String stat = Files.readString(proc.resolve("stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 10_000_000L;
    }

    long peakRssKiB() throws IOException {
        for (String l : Files.readAllLines(proc.resolve("status"))) {
            if (l.startsWith("VmHWM:")) return Long.parseLong(l.replaceAll("\\D", ""));
        }
        return -1;
    }

    /**
     * The libfuse worker threads waiting for a request: threads blocked in a system call (read or
     * splice) whose first argument is a descriptor of /dev/fuse. libfuse starts a worker whenever
     * a request is taken while no other waits, and the multi-threaded loop of both the C
     * filesystems and fuse-panama keeps idle ones; between workloads every worker is idle, so
     * this is their number. -1 if /proc does not tell (another user's process).
     */
    int idleWorkers() {
        try {
            Set<Long> fuseFds = new HashSet<>();
            try (DirectoryStream<Path> fds = Files.newDirectoryStream(proc.resolve("fd"))) {
                for (Path fd : fds) {
                    try {
                        if (Files.readSymbolicLink(fd).toString().equals("/dev/fuse")) fuseFds.add(Long.parseLong(fd.getFileName().toString()));
                    } catch (IOException closed) {
                        // closed between listing and reading
                    }
                }
            }
            int waiting = 0;
            try (DirectoryStream<Path> tasks = Files.newDirectoryStream(proc.resolve("task"))) {
                for (Path t : tasks) {
                    // "NR ARG0 ARG1 ...", or "running", or "-1 SP PC" outside a system call
                    String[] f = Files.readString(t.resolve("syscall")).trim().split(" ");
                    if (f.length > 2 && !f[0].equals("-1") && fuseFds.contains(argument(f[1]))) waiting++;
                }
            }
            return waiting;
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
    }

    /** A system call argument of /proc/PID/task/TID/syscall: hexadecimal, unsigned ("0xffffffffffffff9c"). */
    private static long argument(String hex) {
        return hex.startsWith("0x") ? Long.parseUnsignedLong(hex.substring(2), 16) : Long.parseLong(hex);
    }

    /**
     * Ends the process (SIGTERM, then SIGKILL after 20 s) and detaches the mount if it is still
     * there: {@code fusermount3 -u -z} for a FUSE mount, {@code umount -l} for a kernel one.
     */
    @Override
    public void close() throws Exception {
        process.destroy();
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
        String type = mountType();
        if (type != null) {
            List<String> cmd = type.startsWith("fuse") ? List.of("fusermount3", "-u", "-z", mountpoint.toString())
                    : List.of("umount", "-l", mountpoint.toString());
            Process unmount = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String out = new String(unmount.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (unmount.waitFor() != 0) throw new IOException(String.join(" ", cmd) + " failed: " + out);
        }
        Files.deleteIfExists(mountpoint);
        Files.deleteIfExists(log(mountpoint));
    }
}
