package dev.fusepanama.nio;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import dev.fusepanama.Posix;
import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.Os;
import dev.fusepanama.testkit.TestMount;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A file opened, written and closed again and again while other threads stat it, over jimfs
 * (whose close of a channel interrupts the threads in a call on it): every write and every
 * close(2) succeeds. The kernel sends each release on its own, so a stat's getattr, which reads
 * the size of the file's open channel, meets the close of that channel.
 */
@MountTest
@Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CloseWhileStatTest {
    @Test
    void writesAndClosesSucceedWhileOthersStatTheFile() throws Exception {
        try (FileSystem jimfs = Jimfs.newFileSystem(Configuration.unix())) {
            Path root = Files.createDirectory(jimfs.getPath("/served"));
            NioFileSystem fs = NioFileSystem.of(root, Duration.ZERO); // every stat is a getattr
            try (TestMount m = TestMount.mount(fs, fs.mountOptions().build())) {
                byte[] f = Os.bytes(m.path("f"));
                Os.close(Os.open(f, Posix.O_CREAT | Posix.O_WRONLY, 0644));
                AtomicBoolean done = new AtomicBoolean();
                List<Thread> statters = new ArrayList<>();
                for (int i = 0; i < 3; i++) {
                    statters.add(Thread.ofPlatform().daemon().start(() -> {
                        while (!done.get()) Os.lstat(f);
                    }));
                }
                List<String> failed = new ArrayList<>();
                try {
                    for (int i = 0; i < 2_000 && failed.isEmpty(); i++) {
                        int fd = Os.open(f, Posix.O_WRONLY, 0);
                        long written = Os.pwrite(fd, new byte[] {'x'}, i % 100);
                        int closed = Os.close(fd);
                        if (written != 1 || closed != 0) failed.add("round " + i + ": pwrite " + written + ", close " + closed);
                    }
                } finally {
                    done.set(true);
                    for (Thread t : statters) t.join();
                }
                assertEquals(List.of(), failed);
            }
        }
    }
}
