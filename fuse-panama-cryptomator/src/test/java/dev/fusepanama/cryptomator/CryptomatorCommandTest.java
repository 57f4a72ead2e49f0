package dev.fusepanama.cryptomator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command line's paths that end before a mount: init makes a vault cryptofs opens as the
 * Cryptomator application would; a wrong password, a directory that is no vault and bad
 * arguments are exit status 2 with nothing mounted (the launcher smoke test mounts one).
 */
class CryptomatorCommandTest {
    @TempDir
    Path tmp;

    @Test
    void initMakesAVaultCryptofsOpensWithThePassword() throws Exception {
        Path pass = Files.writeString(tmp.resolve("pass"), "correct horse\n");
        Path vault = tmp.resolve("vault");
        assertEquals(0, CryptomatorCommand.run(new String[] {"init", "--passfile", pass.toString(), vault.toString()}));
        try (FileSystem fs = Vaults.open(vault, "correct horse", false)) {
            Files.writeString(fs.getPath("/hello.txt"), "hello");
            assertEquals("hello", Files.readString(fs.getPath("/hello.txt")));
        }
        assertEquals(2, CryptomatorCommand.run(new String[] {"init", "--passfile", pass.toString(), vault.toString()}),
                "init refuses a directory that is not empty");
    }

    @Test
    void aWrongPasswordOrNoVaultIsExitStatusTwoBeforeAnythingIsMounted() throws Exception {
        Path vault = Files.createDirectory(tmp.resolve("vault"));
        Vaults.create(vault, "correct horse");
        Path wrong = Files.writeString(tmp.resolve("wrong"), "wrong horse\n");
        Path mnt = tmp.resolve("mnt");
        assertEquals(2, CryptomatorCommand.run(new String[] {"--passfile", wrong.toString(), vault.toString(), mnt.toString()}));
        assertFalse(Files.exists(mnt), "no mountpoint made for a wrong password");
        assertEquals(2, CryptomatorCommand.run(new String[] {"--passfile", wrong.toString(), tmp.toString(), mnt.toString()}),
                "not a vault");
        Path right = Files.writeString(tmp.resolve("right"), "correct horse\n");
        assertEquals(2, CryptomatorCommand.run(new String[] {"--passfile", right.toString(), vault.toString(), mnt.toString(),
                "-o", "ro,rw"}), "contradictory options");
        assertFalse(Files.exists(mnt), "nothing mounted for contradictory options");
        for (String refused : new String[] {"allow_othr", "uid=root", "kernel_cache", "attr_timeout=x", "ro,,nosuid"}) {
            assertEquals(2, CryptomatorCommand.run(new String[] {"--passfile", right.toString(), vault.toString(), mnt.toString(),
                    "-o", refused}), "-o " + refused);
            assertFalse(Files.exists(mnt), "nothing mounted for -o " + refused);
        }
        assertEquals(2, CryptomatorCommand.run(new String[] {"--frobnicate", vault.toString()}));
        assertEquals(2, CryptomatorCommand.run(new String[0]));
    }
}
