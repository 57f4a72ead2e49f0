package dev.fusepanama.examples.stress;

import dev.fusepanama.examples.Main;
import dev.fusepanama.testkit.ChildJvm;
import dev.fusepanama.testkit.StressSuite;
import dev.fusepanama.vault.Vault;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** The stress and fault suite on the vault, served by {@code fuse-panama vault} from a vault made in the store. */
class VaultStressTest extends StressSuite {
    private static final String PASSWORD = "stress";

    @Override
    protected List<String> command(Path store, Path mountpoint, long capacity) throws Exception {
        Path cipher = store.resolve("cipher");
        if (Files.notExists(cipher)) Vault.create(cipher, PASSWORD.toCharArray(), 10);
        Path passfile = Files.createTempFile("stress-pass-", "");
        Files.writeString(passfile, PASSWORD + "\n");
        passfile.toFile().deleteOnExit();
        return ChildJvm.command(Main.class, "vault", cipher.toString(), mountpoint.toString(), "--passfile", passfile.toString());
    }
}
