package dev.fusepanama.internal.bind;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Compiles and runs C against the installed fuse3 headers, the source of truth for the bindings.
 * The compiler is {@code cc}, or the cross compiler {@value #CC_ENVIRONMENT} names for a JVM of
 * another architecture than the machine's (run under emulation); its programs then run through
 * the command prefix {@value #RUN_ENVIRONMENT} (e.g. {@code qemu-aarch64-static -L SYSROOT}).
 */
final class NativeProbe {
    private NativeProbe() {}

    static Path nativeDir() {
        Path dir = Path.of(System.getProperty("fusepanama.nativeDir", "../native")).toAbsolutePath().normalize();
        if (!Files.isRegularFile(dir.resolve("fuse_panama.h"))) {
            throw new IllegalStateException("native/ not found at " + dir + " (set -Dfusepanama.nativeDir)");
        }
        return dir;
    }

    /**
     * The fuse3 headers to compile against: {@code FUSE_PANAMA_LIBFUSE_INCLUDE} (the version matrix
     * sets it with the library), else pkg-config's, else /usr/include/fuse3.
     */
    static final String INCLUDE_ENVIRONMENT = "FUSE_PANAMA_LIBFUSE_INCLUDE";
    static final String CC_ENVIRONMENT = "FUSE_PANAMA_CC";
    /** Also what the test kit's {@code Emulation} reads (core's tests cannot see the test kit): set only for an emulated JVM. */
    static final String RUN_ENVIRONMENT = "FUSE_PANAMA_RUN";

    /** The C compiler for this JVM's architecture, as a command and its first arguments. */
    static List<String> cc() {
        return words(System.getenv(CC_ENVIRONMENT), "cc");
    }

    private static List<String> words(String value, String otherwise) {
        String v = value == null || value.isBlank() ? otherwise : value.trim();
        return v.isEmpty() ? List.of() : List.of(v.split("\\s+"));
    }

    /** Output lines of a C program compiled from {@code source} with the fuse3 include path and {@code defines}. */
    static List<String> run(Path source, Path workDir, String... defines) throws IOException, InterruptedException {
        Path exe = workDir.resolve("probe-" + source.getFileName().toString().replace(".c", ""));
        List<String> cc = new ArrayList<>(cc());
        cc.addAll(List.of("-Wall", "-o", exe.toString(), "-I", nativeDir().toString()));
        for (String d : defines) {
            cc.add("-D" + d);
        }
        cc.addAll(fuse3Cflags());
        cc.add(source.toString());
        exec(cc);
        List<String> run = new ArrayList<>(words(System.getenv(RUN_ENVIRONMENT), ""));
        run.add(exe.toString());
        return exec(run);
    }

    static List<String> fuse3Cflags() throws IOException, InterruptedException {
        String include = System.getenv(INCLUDE_ENVIRONMENT);
        if (include != null && !include.isBlank()) {
            return List.of("-I" + include);
        }
        try {
            return List.of(String.join(" ", exec(List.of("pkg-config", "--cflags", "fuse3"))).trim().split("\\s+"));
        } catch (IllegalStateException e) {
            return List.of("-I/usr/include/fuse3");
        }
    }

    static List<String> exec(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed:\n" + out);
        }
        return out.lines().toList();
    }
}
