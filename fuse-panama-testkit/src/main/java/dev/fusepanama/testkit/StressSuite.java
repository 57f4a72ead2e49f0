package dev.fusepanama.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.fusepanama.Errno;
import dev.fusepanama.Posix;
import dev.fusepanama.libc.Libc;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;

/**
 * Stress and faults: your filesystem served by a process of its own, as a user runs it, and worked
 * on as a busy machine works on a disk. Each check mounts afresh:
 * <ul>
 *   <li><b>several processes at once</b>, each doing random creates, writes, appends, truncates,
 *       renames, links, unlinks, directories and extended attributes in a directory of its own,
 *       every result checked against a model ({@link ModelWorker}), over an ext4 store, where
 *       inode numbers are given again as soon as a file is deleted;
 *   <li><b>fsstress and fsx</b> from the fstests build (the kernel developers' stress tool, and
 *       the data checker that found bugs in every filesystem it met), side by side;
 *   <li><b>a full store</b>: writers that fill an 8 MiB store (a small tmpfs, or the filesystem's
 *       own capacity) get short writes and ENOSPC, never a write acknowledged and lost, and every
 *       byte acknowledged reads back;
 *   <li><b>the descriptor limit</b>: the serving process at a low RLIMIT_NOFILE serves far more
 *       files than it may hold open, a call that meets the limit fails alone (EMFILE or ENFILE)
 *       and the next works, and the process unmounts and exits cleanly while at its limit;
 *   <li><b>kill -9</b> of the serving process while files are written: the dead mount is
 *       unmounted, a new process serves the same store, and every file written and fsync'ed
 *       before the kill is there, whole (a filesystem in memory: the new one is empty and works).
 * </ul>
 *
 * <p>Tell it how to serve with {@link #command}: a command line that mounts at the mountpoint,
 * keeps its files in the store it is given, serves until SIGTERM, and then unmounts and exits 0.
 * Each check's line goes to {@code target/stress/CLASS.summary}. How long the workers run:
 * {@value #SECONDS_PROPERTY} (seconds, default 15). Runs as root (it mounts ext4 and tmpfs stores
 * and lowers a process's limit); as another user it is skipped. The JUnit tag {@value #TAG} leaves
 * it out of a run.
 */
@Tag(StressSuite.TAG)
@MountTest
@Timeout(value = 300, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
public abstract class StressSuite {
    /** For a subclass: the filesystem under test is the one it mounts. */
    protected StressSuite() {}

    /** The JUnit tag of this suite. */
    public static final String TAG = "stress";
    /** How long the model workers run, in seconds. */
    public static final String SECONDS_PROPERTY = "fusepanama.stress.seconds";
    /** The fstests build whose {@code ltp/fsstress} and {@code ltp/fsx} run; when set, a missing one fails. */
    public static final String FSTESTS_ENVIRONMENT = "FUSE_PANAMA_FSTESTS";
    /** The descriptor limit of the serving process in {@link #theDescriptorLimitFailsOneCallNotTheMount}. */
    public static final int DESCRIPTOR_LIMIT = 256;
    private static final long FULL_STORE = 8L << 20;
    private static final long ROOMY_STORE = 512L << 20;

    /** What a filesystem may lack; the checks that need it leave it out. */
    public enum Feature {
        /** Extended attributes in the {@code user.} namespace. */
        XATTRS,
        /** Hard links. */
        LINKS,
        /** Names that are not UTF-8. */
        NON_UTF8_NAMES,
        /** Files kept in a store that outlives the process (not in its memory). */
        PERSISTENT
    }

    /**
     * The command that serves the filesystem at {@code mountpoint}. It must mount, serve until
     * SIGTERM, unmount and exit 0.
     *
     * @param store a directory of a filesystem of the test's own to keep the files in, empty the first
     *     time and handed in again after a kill; null for a filesystem in memory
     * @param mountpoint the empty directory to mount at
     * @param capacity for a filesystem in memory, the most bytes it may hold (the full-store check's
     *     8 MiB, else 512 MiB); a filesystem with a store may ignore it
     * @return the command line, as for a {@link ProcessBuilder}
     * @throws Exception if it cannot be made (the check fails)
     */
    protected abstract List<String> command(Path store, Path mountpoint, long capacity) throws Exception;

    /**
     * What this filesystem lacks of {@link Feature}; nothing by default.
     *
     * @return the features whose checks are left out
     */
    protected Set<Feature> unsupported() {
        return Set.of();
    }

    private final List<AutoCloseable> cleanup = new ArrayList<>();
    private String name;
    private String test;
    private Path logs;

    @BeforeEach
    void setUp(TestInfo info) throws IOException {
        Assumptions.assumeTrue(Libc.geteuid() == 0, "the stress suite mounts stores of its own and lowers limits: root only");
        name = getClass().getSimpleName();
        test = info.getTestMethod().map(m -> m.getName()).orElse("test");
        logs = Files.createDirectories(Path.of("target", "stress"));
    }

    @AfterEach
    void tearDown() throws Exception {
        Exception first = null;
        for (int i = cleanup.size() - 1; i >= 0; i--) {
            try {
                cleanup.get(i).close();
            } catch (Exception e) {
                if (first == null) first = e;
            }
        }
        cleanup.clear();
        if (first != null) throw first;
    }

    private boolean has(Feature f) {
        return !unsupported().contains(f);
    }

    private static double seconds() {
        return Double.parseDouble(System.getProperty(SECONDS_PROPERTY, "15"));
    }

    private void summary(String line) throws IOException {
        Files.writeString(logs.resolve(name + ".summary"), line + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    // ---- the served filesystem ---------------------------------------------------------------

    /** A store of the test's own: ext4 (roomy) or a small tmpfs (to fill); null for a filesystem in memory. */
    private Path store(boolean small) throws Exception {
        if (!has(Feature.PERSISTENT)) return null;
        Path root = small ? Tmpfs.mount("stress-full", (int) (FULL_STORE >> 20)) : Ext4.mount("stress", (int) (ROOMY_STORE >> 20));
        cleanup.add(() -> {
            if (small) Tmpfs.unmount(root);
            else Ext4.unmount(root);
        });
        return Files.createDirectory(root.resolve("store"));
    }

    /** The filesystem's process, serving at {@link #mountpoint}. */
    protected final class Served implements AutoCloseable {
        final Process process;
        final Path mountpoint;
        final Path log;

        Served(Process process, Path mountpoint, Path log) {
            this.process = process;
            this.mountpoint = mountpoint;
            this.log = log;
        }

        /** SIGTERM, and its exit status once it ended (it unmounts first). */
        int stop() throws Exception {
            process.destroy();
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                fail("the serving process did not end within 60 s of SIGTERM; its output: " + output());
            }
            return process.exitValue();
        }

        String output() throws IOException {
            return Files.exists(log) ? Files.readString(log) : "";
        }

        @Override
        public void close() throws Exception {
            if (process.isAlive()) {
                process.destroyForcibly();
                process.waitFor(30, TimeUnit.SECONDS);
            }
            if (mounted(mountpoint)) TestMount.forceUnmount(mountpoint);
            Files.deleteIfExists(mountpoint);
        }
    }

    private static boolean mounted(Path dir) throws IOException {
        return Files.readString(Path.of("/proc/self/mounts")).contains(" " + dir + " ");
    }

    private int serverCount;

    /** Starts the filesystem over {@code store}, with {@code limit} descriptors if positive, and waits for its mount. */
    private Served serve(Path store, long capacity, int limit, Path at) throws Exception {
        Path mountpoint = at != null ? at : Files.createTempDirectory("stress-mnt-");
        List<String> command = new ArrayList<>();
        if (limit > 0) command.addAll(List.of("prlimit", "--nofile=" + limit + ":" + limit, "--"));
        command.addAll(command(store, mountpoint, capacity));
        Path log = logs.resolve(name + "-" + test + "-server-" + ++serverCount + ".log");
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        Served s = new Served(p, mountpoint, log);
        cleanup.add(s);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!mounted(mountpoint)) {
            if (!p.isAlive()) fail("the filesystem's process exited (" + p.exitValue() + ") before it mounted: " + s.output());
            if (System.nanoTime() > deadline) fail("not mounted within 60 s: " + s.output());
            Thread.sleep(50);
        }
        return s;
    }

    /** Stops it and checks that it ended as it should: exit 0, nothing mounted, no abort. */
    private void stopCleanly(Served s) throws Exception {
        int status = s.stop();
        String out = s.output();
        assertEquals(0, status, "the serving process's exit status; its output: " + out);
        assertTrue(!mounted(s.mountpoint), "unmounted at the end");
        assertTrue(!out.contains("libgcc_s") && !out.contains("Aborted"), "no abort: " + out);
    }

    // ---- workers -----------------------------------------------------------------------------

    private Process worker(Path dir, double seconds, long seed, List<String> options, String label) throws IOException {
        List<String> args = new ArrayList<>(List.of(dir.toString(), Double.toString(seconds), Long.toString(seed)));
        args.addAll(options);
        Path log = logs.resolve(name + "-" + label + ".log");
        return new ProcessBuilder(ChildJvm.command(ModelWorker.class, args.toArray(String[]::new)))
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    private List<String> workerOptions() {
        List<String> o = new ArrayList<>();
        if (!has(Feature.XATTRS)) o.add("--no-xattrs");
        if (!has(Feature.LINKS)) o.add("--no-links");
        if (!has(Feature.NON_UTF8_NAMES)) o.add("--utf8-names");
        return o;
    }

    /** Waits for each worker; their last lines ("ok OPS REFUSALS"), failing with the output of any that failed. */
    private List<long[]> await(List<Process> workers, List<String> labels, double seconds) throws Exception {
        List<long[]> counts = new ArrayList<>();
        for (int i = 0; i < workers.size(); i++) {
            Process w = workers.get(i);
            Path log = logs.resolve(name + "-" + labels.get(i) + ".log");
            if (!w.waitFor((long) seconds + 120, TimeUnit.SECONDS)) {
                w.destroyForcibly();
                fail(labels.get(i) + " did not end: " + Files.readString(log));
            }
            String out = Files.readString(log).strip();
            if (w.exitValue() != 0) fail(labels.get(i) + " found a difference:\n" + out);
            String[] last = out.substring(out.lastIndexOf('\n') + 1).split(" ");
            counts.add(new long[] {Long.parseLong(last[1]), last.length > 2 ? Long.parseLong(last[2]) : 0});
        }
        return counts;
    }

    // ---- the checks --------------------------------------------------------------------------

    @Test
    void severalProcessesAtOnceEachMatchTheirModel() throws Exception {
        Served s = serve(store(false), ROOMY_STORE, 0, null);
        double seconds = seconds();
        List<Process> workers = new ArrayList<>();
        List<String> labels = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            labels.add("model-" + i);
            workers.add(worker(s.mountpoint.resolve("w" + i), seconds, 57_000 + i, workerOptions(), labels.get(i)));
        }
        long ops = await(workers, labels, seconds).stream().mapToLong(c -> c[0]).sum();
        stopCleanly(s);
        summary(String.format("4 processes x %.0f s: %,d operations, each as its model said", seconds, ops));
    }

    @Test
    void fsstressAndFsxSideBySideLeaveItWorking() throws Exception {
        Path fstests = fstests();
        Served s = serve(store(false), ROOMY_STORE, 0, null);
        Path stressDir = Files.createDirectory(s.mountpoint.resolve("fsstress"));
        int ops = 4000;
        Process fsstress = new ProcessBuilder(fstests.resolve("ltp/fsstress").toString(), "-d", stressDir.toString(),
                "-n", Integer.toString(ops), "-p", "4", "-s", "57")
                .redirectErrorStream(true).redirectOutput(logs.resolve(name + "-fsstress.log").toFile()).start();
        Process fsx = new ProcessBuilder(fstests.resolve("ltp/fsx").toString(), "-q", "-N", "10000", "-S", "57",
                s.mountpoint.resolve("fsx-file").toString())
                .redirectErrorStream(true).redirectOutput(logs.resolve(name + "-fsx.log").toFile()).start();
        assertTrue(fsx.waitFor(240, TimeUnit.SECONDS), "fsx ended");
        assertEquals(0, fsx.exitValue(), "fsx found the file's data otherwise than it wrote it: "
                + Files.readString(logs.resolve(name + "-fsx.log")));
        assertTrue(fsstress.waitFor(240, TimeUnit.SECONDS), "fsstress ended");
        assertEquals(0, fsstress.exitValue(), "fsstress: " + Files.readString(logs.resolve(name + "-fsstress.log")));
        Process rm = new ProcessBuilder("rm", "-rf", stressDir.toString()).redirectErrorStream(true).start();
        assertTrue(rm.waitFor(120, TimeUnit.SECONDS), "rm -rf of what fsstress left ended");
        assertEquals(0, rm.exitValue(), "rm -rf of what fsstress left: " + new String(rm.getInputStream().readAllBytes(),
                StandardCharsets.UTF_8));
        Process check = worker(s.mountpoint.resolve("after"), 2, 58_000, workerOptions(), "after-fsstress");
        await(List.of(check), List.of("after-fsstress"), 2);
        stopCleanly(s);
        summary(String.format("fsstress (4 processes, %,d operations each) beside fsx (10,000 checked operations), then rm -rf: passed", ops));
    }

    private static Path fstests() {
        String configured = System.getenv(FSTESTS_ENVIRONMENT);
        if (configured != null && !configured.isBlank()) {
            Path p = Path.of(configured);
            assertTrue(Files.isExecutable(p.resolve("ltp/fsstress")) && Files.isExecutable(p.resolve("ltp/fsx")),
                    FSTESTS_ENVIRONMENT + "=" + configured + " has no ltp/fsstress and ltp/fsx");
            return p;
        }
        Path cache = Path.of(System.getProperty("user.home"), ".cache", "fuse-panama");
        try (Stream<Path> s = Files.isDirectory(cache) ? Files.list(cache) : Stream.empty()) {
            for (Path p : s.filter(p -> p.getFileName().toString().startsWith("fstests-")).toList()) {
                if (Files.isExecutable(p.resolve("ltp/fsx"))) return p;
            }
        } catch (IOException e) {
            // looked for below
        }
        Assumptions.abort("no fstests build (scripts/fstests/run.sh --build makes one; " + FSTESTS_ENVIRONMENT + " names it)");
        return null;
    }

    @Test
    void aFullStoreRefusesWritesAndKeepsEveryAcknowledgedByte() throws Exception {
        Served s = serve(store(true), FULL_STORE, 0, null);
        double seconds = seconds();
        List<Process> workers = new ArrayList<>();
        List<String> labels = new ArrayList<>();
        List<String> options = new ArrayList<>(workerOptions());
        options.add("--fill");
        for (int i = 0; i < 3; i++) {
            labels.add("fill-" + i);
            workers.add(worker(s.mountpoint.resolve("w" + i), seconds, 59_000 + i, options, labels.get(i)));
        }
        List<long[]> counts = await(workers, labels, seconds);
        long ops = counts.stream().mapToLong(c -> c[0]).sum();
        long refused = counts.stream().mapToLong(c -> c[1]).sum();
        assertTrue(refused > 0, "the writers filled the 8 MiB store");
        int echo = Os.writeFile(s.mountpoint.resolve("w0/echo"), "hello\n".getBytes(StandardCharsets.US_ASCII));
        assertTrue(echo == 0 || echo == -Errno.ENOSPC, "echo > file on a full store: " + Errno.name(-echo));
        if (echo != 0) assertTrue(Files.size(s.mountpoint.resolve("w0/echo")) <= 0 || Files.notExists(s.mountpoint.resolve("w0/echo")),
                "a refused write leaves no bytes that read back as zeros");
        stopCleanly(s);
        summary(String.format("a full 8 MiB store: 3 writers, %,d operations, %,d refused for room, nothing acknowledged lost",
                ops, refused));
    }

    @Test
    void theDescriptorLimitFailsOneCallNotTheMount() throws Exception {
        Served s = serve(store(false), ROOMY_STORE, DESCRIPTOR_LIMIT, null);
        Path dir = Files.createDirectory(s.mountpoint.resolve("many"));
        int files = DESCRIPTOR_LIMIT * 8;
        for (int i = 0; i < files; i++) {
            Files.writeString(dir.resolve("f" + i), "file " + i);
        }
        for (int i = 0; i < files; i++) {
            assertEquals(("file " + i).length(), Os.lstat(Os.bytes(dir.resolve("f" + i))).size(), "stat of f" + i);
        }
        List<byte[]> names = Os.listBytes(dir);
        assertEquals(files + 2, names.size(), "a listing of all of them");
        for (int i = 0; i < files; i += 7) {
            assertEquals("file " + i, Files.readString(dir.resolve("f" + i)), "f" + i + " reads");
        }
        // More files open at once than the process may hold: some opens may fail, each alone.
        List<Integer> open = new ArrayList<>();
        int refused = 0;
        for (int i = 0; i < DESCRIPTOR_LIMIT + 64; i++) {
            int fd = Os.open(Os.bytes(dir.resolve("f" + i)), Posix.O_RDONLY, 0);
            if (fd >= 0) open.add(fd);
            else if (fd == -Errno.EMFILE || fd == -Errno.ENFILE) refused++;
            else fail("open of f" + i + " at the limit: " + Errno.name(-fd) + " (EMFILE or ENFILE expected)");
        }
        String atLimit = s.output();
        for (int fd : open) Os.close(fd);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        String readBack = null;
        while (System.nanoTime() < deadline) { // releases reach the filesystem after close(2) returns
            try {
                Files.writeString(dir.resolve("after"), "works again");
                readBack = Files.readString(dir.resolve("after"));
                break;
            } catch (IOException e) {
                Thread.sleep(50);
            }
        }
        assertEquals("works again", readBack, "a new file is written and read once descriptors are free again");
        // At the limit again, and stopped there: it unmounts and exits, without an abort.
        open.clear();
        for (int i = 0; i < DESCRIPTOR_LIMIT + 64; i++) {
            int fd = Os.open(Os.bytes(dir.resolve("f" + i)), Posix.O_RDONLY, 0);
            if (fd >= 0) open.add(fd);
        }
        int status = s.stop(); // with those files still open: a busy mount, ended after its grace period
        for (int fd : open) Os.close(fd);
        String out = s.output();
        assertTrue(!out.contains("libgcc_s") && !out.contains("Aborted"), "no abort at the limit: " + out);
        assertTrue(status == 0 || status == 1, "the serving process ended on its own (exit " + status + "): " + out);
        assertTrue(!mounted(s.mountpoint), "unmounted");
        summary(String.format("descriptor limit %d: %,d files listed, stat'ed and read, %d of %d opens at once refused alone"
                + " (%s), unmounted at the limit", DESCRIPTOR_LIMIT, files, refused, DESCRIPTOR_LIMIT + 64,
                atLimit.contains("EMFILE") || atLimit.contains("descriptor") ? "logged" : "nothing logged"));
    }

    @Test
    void killNineWhileWritingThenANewMountHasEverySyncedFile() throws Exception {
        Path store = store(false);
        Served s = serve(store, ROOMY_STORE, 0, null);
        List<Process> writers = new ArrayList<>();
        List<Path> logsOf = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            Path log = logs.resolve(name + "-synced-" + i + ".list");
            Files.deleteIfExists(log);
            logsOf.add(log);
            writers.add(worker(s.mountpoint.resolve("s" + i), 60, 61_000 + i, List.of("--synced", log.toString()), "synced-" + i));
        }
        Thread.sleep(4000); // writing, fsync'ing and removing
        s.process.destroyForcibly(); // SIGKILL
        assertTrue(s.process.waitFor(30, TimeUnit.SECONDS), "the killed process ended");
        for (Process w : writers) {
            assertTrue(w.waitFor(60, TimeUnit.SECONDS), "a writer ended once its filesystem was gone");
        }
        // The dead mount answers ENOTCONN until it is unmounted, unless it went by itself (auto_unmount).
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        int stat;
        byte[] probe = Os.bytes(s.mountpoint.resolve("probe-after-the-kill")); // a lookup: a request to the dead server
        while ((stat = Os.access(probe, 0)) != -Errno.ENOTCONN && mounted(s.mountpoint)
                && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        boolean wentByItself = !mounted(s.mountpoint);
        if (!wentByItself) {
            assertEquals(-Errno.ENOTCONN, stat, "the dead mount answers ENOTCONN");
            Process unmount = new ProcessBuilder("fusermount3", "-u", "-z", s.mountpoint.toString()).redirectErrorStream(true).start();
            assertTrue(unmount.waitFor(30, TimeUnit.SECONDS) && unmount.exitValue() == 0,
                    "fusermount3 -u of the dead mount: " + new String(unmount.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        }
        Served again = serve(store, ROOMY_STORE, 0, s.mountpoint);
        long checked = 0;
        if (has(Feature.PERSISTENT)) {
            for (int i = 0; i < 2; i++) {
                long[] counted = {0};
                assertNull(ModelWorker.checkSynced(again.mountpoint.resolve("s" + i), logsOf.get(i), counted), "after the kill");
                checked += counted[0];
            }
            assertTrue(checked > 0, "files were written and synced before the kill");
        } else {
            try (Stream<Path> left = Files.list(again.mountpoint)) {
                assertEquals(0, left.count(), "a new filesystem in memory starts empty");
            }
        }
        Process after = worker(again.mountpoint.resolve("after"), 2, 62_000, workerOptions(), "after-kill");
        await(List.of(after), List.of("after-kill"), 2);
        stopCleanly(again);
        String gone = wentByItself ? "the dead mount went by itself" : "the dead mount answered ENOTCONN and was unmounted";
        summary(has(Feature.PERSISTENT)
                ? String.format("kill -9 while writing: %s, %,d synced files whole after a new mount", gone, checked)
                : "kill -9 while writing: " + gone + ", a new one mounted there, empty and working");
    }
}
