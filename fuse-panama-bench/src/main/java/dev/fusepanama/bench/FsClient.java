package dev.fusepanama.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * native/build/fsclient (native/fsclient.c): a client without a JVM, so that nothing of the
 * client's own is counted in what a row measures.
 */
final class FsClient {
    private FsClient() {}

    /**
     * Runs {@code fsclient [--uncached] OP DIR N [NAME]} and returns {operations, nanoseconds}.
     * {@code uncached} drops the kernel's cached pages of the file read first, so that the reads
     * reach the filesystem whatever earlier runs left cached; {@code name} may be null.
     */
    static long[] run(boolean uncached, String op, Path dir, long n, String name) throws IOException, InterruptedException {
        List<String> cmd = command(uncached, op, dir, n, name);
        return result(cmd, new ProcessBuilder(cmd).redirectErrorStream(true).start());
    }

    /** As {@link #run} with the client kept on CPU {@code cpu} ({@code fsclient --cpu}). */
    static long[] onCpu(int cpu, String op, Path dir, long n, String name) throws IOException, InterruptedException {
        List<String> cmd = command(false, op, dir, n, name);
        cmd.addAll(1, List.of("--cpu", Integer.toString(cpu)));
        return result(cmd, new ProcessBuilder(cmd).redirectErrorStream(true).start());
    }

    /**
     * {@code jobs} clients at once, each doing {@code n / jobs} operations: {operations of all,
     * the slowest one's nanoseconds}, so that throughput is of the clients together.
     */
    static long[] parallel(int jobs, String op, Path dir, long n) throws IOException, InterruptedException {
        return parallel(jobs, op, dir, n, null);
    }

    /** As {@link #parallel(int, String, Path, long)} on the file {@code name} (null: the op's default). */
    static long[] parallel(int jobs, String op, Path dir, long n, String name) throws IOException, InterruptedException {
        List<List<String>> started = new ArrayList<>();
        List<Process> processes = new ArrayList<>();
        for (int j = 0; j < jobs; j++) {
            List<String> cmd = command(false, op, dir, Math.max(1, n / jobs), name);
            started.add(cmd);
            processes.add(new ProcessBuilder(cmd).redirectErrorStream(true).start());
        }
        long ops = 0;
        long nanos = 0;
        for (int j = 0; j < jobs; j++) {
            long[] r = result(started.get(j), processes.get(j));
            ops += r[0];
            nanos = Math.max(nanos, r[1]);
        }
        return new long[] {ops, nanos};
    }

    private static List<String> command(boolean uncached, String op, Path dir, long n, String name) {
        List<String> cmd = new ArrayList<>(List.of(Compare.repo().resolve("native/build/fsclient").toString()));
        if (uncached) cmd.add("--uncached");
        cmd.addAll(List.of(op, dir.toString(), Long.toString(n)));
        if (name != null) cmd.add(name);
        return cmd;
    }

    private static long[] result(List<String> cmd, Process p) throws IOException, InterruptedException {
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (p.waitFor() != 0) throw new IOException(String.join(" ", cmd) + " failed: " + out);
        // "OP N NANOS_PER_OP"
        String[] f = out.split(" ");
        long ops = Long.parseLong(f[1]);
        return new long[] {ops, Math.round(Double.parseDouble(f[2]) * ops)};
    }
}
