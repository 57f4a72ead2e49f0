package dev.fusepanama.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.TestMount;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The README's example filesystem works with the ordinary tools. */
@MountTest
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class FlatFileSystemTest {
    static String sh(String script, java.nio.file.Path dir) throws Exception {
        Process p = new ProcessBuilder("sh", "-ec", script).directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), out);
        return out;
    }

    @Test
    void lsCatEchoMvRmWork() throws Exception {
        try (TestMount m = TestMount.mount(new FlatFileSystem())) {
            String out = sh("""
                    echo hello > greeting
                    echo world >> greeting
                    cat greeting
                    mv greeting renamed
                    ls
                    echo short > renamed
                    cat renamed
                    touch empty
                    ls -l empty | cut -c1-10
                    rm renamed empty
                    ls | wc -l
                    """, m.root());
            assertEquals("hello\nworld\nrenamed\nshort\n-rw-r--r--\n0\n", out);
        }
    }
}
