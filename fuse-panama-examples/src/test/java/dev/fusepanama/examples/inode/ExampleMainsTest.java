package dev.fusepanama.examples.inode;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.fusepanama.testkit.ChildJvm;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The one-feature examples' mains, as {@code ./fuse-panama example NAME MOUNTPOINT} runs them,
 * given a mountpoint they cannot mount on: one line saying why and exit status 2, where a
 * MountException's stack trace ended them with 1, and an empty argument meant the current
 * directory. Nothing is mounted: the checks before a mount refuse these.
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ExampleMainsTest {
    private static final List<Class<?>> EXAMPLES = List.of(HelloInode.class, InvalidateInode.class, InvalidateEntry.class,
            StoreRetrieve.class, PollReadable.class, IoctlSize.class, PassthroughFile.class);

    @Test
    void aMountpointTheyCannotUseIsOneLineAndExitStatusTwo(@TempDir Path tmp) throws Exception {
        Path file = Files.writeString(tmp.resolve("file"), "data");
        Path cwd = Files.createDirectory(tmp.resolve("cwd"));
        List<String> failed = new ArrayList<>();
        for (Class<?> example : EXAMPLES) {
            boolean takesFile = example == PassthroughFile.class;
            for (String mountpoint : List.of("", tmp.resolve("missing").toString(), file.toString())) {
                List<String> args = new ArrayList<>(List.of(mountpoint));
                if (takesFile) args.add(file.toString());
                // in a directory of its own, so that an empty argument taken for the current directory mounts nothing that matters
                Path log = tmp.resolve("out.log");
                Process p = new ProcessBuilder(ChildJvm.command(example, args.toArray(String[]::new))).directory(cwd.toFile())
                        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
                try {
                    p.waitFor(15, TimeUnit.SECONDS);
                } finally {
                    if (p.isAlive()) {
                        p.destroy(); // SIGTERM: it unmounts what it mounted
                        p.waitFor(15, TimeUnit.SECONDS);
                    }
                }
                String out = Files.readString(log, StandardCharsets.UTF_8).strip();
                int code = p.exitValue();
                String expected = mountpoint.isEmpty() ? "usage: " + example.getSimpleName()
                        : mountpoint.equals(file.toString()) ? "is not a directory" : "does not exist";
                if (code != 2 || out.lines().count() != 1 || !out.contains(expected)) {
                    failed.add(example.getSimpleName() + " '" + mountpoint + "' -> " + code + ": " + out);
                }
            }
        }
        assertEquals(List.of(), failed);
    }
}
