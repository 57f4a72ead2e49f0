package dev.fusepanama.examples.inode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.TestMount;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The inode API's hello: ls, stat and cat see one read-only file. */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
@MountTest
class HelloInodeTest {
    static String sh(String script, Path dir) throws Exception {
        ProcessBuilder b = new ProcessBuilder("sh", "-ec", script).directory(dir.toFile()).redirectErrorStream(true);
        b.environment().put("LC_ALL", "C"); // the messages compared below are coreutils' English ones
        Process p = b.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), out);
        return out;
    }

    @Test
    void lsStatAndCatSeeOneReadOnlyFile() throws Exception {
        try (TestMount m = TestMount.mount(new HelloInode())) {
            String out = sh("""
                    ls -a
                    stat -c '%A %s %h' hello
                    cat hello
                    """, m.root());
            assertEquals(".\n..\nhello\n-r--r--r-- 26 1\nHello from the inode API!\n", out);
            assertEquals(new String(HelloInode.TEXT, StandardCharsets.UTF_8), Files.readString(m.path("hello")));
        }
    }

    @Test
    void writingAndMissingNamesFail() throws Exception {
        try (TestMount m = TestMount.mount(new HelloInode())) {
            assertThrows(AccessDeniedException.class, () -> Files.writeString(m.path("hello"), "x"));
            String out = sh("cat nothing 2>&1 || echo failed", m.root());
            assertEquals("cat: nothing: No such file or directory\nfailed\n", out);
        }
    }
}
