package dev.fusepanama.bench;

import dev.fusepanama.examples.vault.Vault;
import dev.fusepanama.examples.vault.VaultFileSystem;
import dev.fusepanama.inode.InodeMount;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * One long-lived JVM that mounts and unmounts vaults on request, as an application embedding
 * the vault does: its code stays compiled from one mount to the next. {@code vault-compare
 * --embedded} drives it through stdin, one command per line, each answered on stdout by
 * {@code ok} or {@code error MESSAGE}:
 * <pre>
 *   mount PASSFILE CIPHER_DIR MOUNTPOINT
 *   unmount MOUNTPOINT
 * </pre>
 * End of input unmounts whatever is still mounted.
 */
public final class VaultHost {
    private VaultHost() {}

    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        Map<String, InodeMount> mounts = new HashMap<>();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
            for (String line; (line = in.readLine()) != null; ) {
                String[] w = line.trim().split(" ");
                try {
                    switch (w[0]) {
                        case "mount" -> {
                            char[] password = Files.readString(Path.of(w[1])).strip().toCharArray();
                            VaultFileSystem fs = Vault.unlock(Path.of(w[2]), password);
                            java.util.Arrays.fill(password, '\0');
                            mounts.put(w[3], Vault.mount(fs, Path.of(w[3]), Vault.mountOptions(Path.of(w[2])).build()));
                        }
                        case "unmount" -> {
                            InodeMount m = mounts.remove(w[1]);
                            if (m == null) throw new IllegalArgumentException("nothing mounted at " + w[1]);
                            m.close(Duration.ofSeconds(30));
                        }
                        default -> throw new IllegalArgumentException("unknown command: " + line);
                    }
                    out.println("ok");
                } catch (Exception e) {
                    out.println("error " + e);
                }
            }
        } finally {
            for (InodeMount m : mounts.values()) m.close();
        }
    }
}
