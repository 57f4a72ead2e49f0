package dev.fusepanama.internal.bind;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Compiles and runs C against the installed fuse3 headers, the source of truth for the bindings. */
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

    /** Output lines of a C program compiled from {@code source} with the fuse3 include path and {@code defines}. */
    static List<String> run(Path source, Path workDir, String... defines) throws IOException, InterruptedException {
        Path exe = workDir.resolve("probe-" + source.getFileName().toString().replace(".c", ""));
        List<String> cc = new ArrayList<>(List.of("cc", "-Wall", "-o", exe.toString(), "-I", nativeDir().toString()));
        for (String d : defines) {
            cc.add("-D" + d);
        }
        cc.addAll(fuse3Cflags());
        cc.add(source.toString());
        exec(cc);
        return exec(List.of(exe.toString()));
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
