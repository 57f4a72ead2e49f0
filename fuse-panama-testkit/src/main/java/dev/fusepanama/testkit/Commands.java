package dev.fusepanama.testkit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The system commands the test fixtures run (mount, umount, mkfs): each to its end, within a minute. */
final class Commands {
    private Commands() {}

    /** Runs {@code command}: null if it succeeded, else the command and what it printed. */
    static String run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return String.join(" ", command) + " timed out";
        }
        return p.exitValue() == 0 ? null : String.join(" ", command) + ": " + out;
    }
}
