package dev.fusepanama.vault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.Os;
import dev.fusepanama.testkit.TestMount;
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
 * The vault's lookups, counted by the library on its node table, raced through a mount: four
 * processes stat, list ({@code ls -lR}, READDIRPLUS entries counted) and read 200 files in four
 * directories while the kernel drops its caches every 20 ms. A node forgotten while the kernel
 * still held it would fail a client's next request of it with ESTALE; a lookup counted that the
 * kernel never took would stay once the kernel has forgotten everything.
 */
@MountTest
@Timeout(value = 3, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class VaultForgetRaceTest {
    private static final char[] PASSWORD = "forget".toCharArray();

    /** The lookups the kernel holds of every node but the root, as the vault's table counts them. */
    private static long held(VaultFileSystem fs) {
        long sum = 0;
        for (Node n : fs.table.nodes()) {
            if (n != fs.table.root()) sum += n.lookups();
        }
        return sum;
    }

    @Test
    void forgetsRacingLookupsAndListingsDropNoNodeTheKernelHoldsAndLeaveNoLookup(@TempDir Path cipher) throws Exception {
        Vault.create(cipher, PASSWORD, 10);
        VaultFileSystem fs = Vault.unlock(cipher, PASSWORD);
        try (TestMount m = TestMount.mount(fs, Vault.mountOptions(cipher).build())) {
            for (int d = 0; d < 4; d++) {
                Path dir = Files.createDirectory(m.path("d" + d));
                for (int i = 0; i < 50; i++) Files.writeString(dir.resolve("f" + i), "file " + d + "/" + i);
            }
            String script = "end=$(($(date +%s) + 5)); while [ $(date +%s) -lt $end ]; do"
                    + " stat -c %i \"$1\"/d*/f* > /dev/null || exit 1; ls -lR \"$1\" > /dev/null || exit 1;"
                    + " [ \"$(cat \"$1/d2/f17\")\" = 'file 2/17' ] || exit 3; done";
            List<Process> clients = new ArrayList<>();
            int drops = 0;
            try {
                for (int c = 0; c < 4; c++) {
                    clients.add(new ProcessBuilder("sh", "-c", script, "client", m.root().toString()).redirectErrorStream(true).start());
                }
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
                while (System.nanoTime() < deadline) {
                    Os.dropCaches();
                    drops++;
                    Thread.sleep(20);
                }
                for (Process p : clients) {
                    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "a client ran too long");
                    assertEquals(0, p.exitValue(), "a client's stat, ls or cat failed: "
                            + new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
                }
            } finally {
                clients.forEach(Process::destroyForcibly);
            }
            assertTrue(drops > 20, "the kernel was made to forget often: " + drops);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (held(fs) > 0 && System.nanoTime() < deadline) {
                Os.dropCaches();
                Thread.sleep(100);
            }
            assertEquals(0, held(fs), "every lookup forgotten once the kernel forgot: none counted that it did not take");
            assertEquals("file 3/49", Files.readString(m.path("d3/f49")), "and looked up again");
        }
    }
}
