package dev.fusepanama.examples;

import dev.fusepanama.vault.Vault;
import dev.fusepanama.vault.VaultFileSystem;
import dev.fusepanama.vault.crypto.WrongPasswordException;
import java.io.Console;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code fuse-panama vault CIPHER_DIR [MOUNTPOINT]} mounts a gocryptfs vault;
 * {@code fuse-panama vault init CIPHER_DIR} makes one. The password comes from the terminal
 * (not echoed) or from the first line of {@code --passfile}. Exit status 2 for a wrong password or
 * a directory that is not a vault, before anything is mounted.
 */
@Command(name = "vault", mixinStandardHelpOptions = true,
        description = "Mounts a gocryptfs vault (format 2, gocryptfs's default settings): names and contents are decrypted on the fly.",
        subcommands = VaultCommand.Init.class)
final class VaultCommand extends Main.Common implements Callable<Integer> {
    private static final Logger LOG = LoggerFactory.getLogger("fuse-panama");

    @Parameters(index = "0", arity = "0..1", paramLabel = "CIPHER_DIR", description = "The vault's directory (holding gocryptfs.conf).")
    Path cipherDir;

    @Parameters(index = "1", arity = "0..1", paramLabel = "MOUNTPOINT",
            description = "Where to mount (created if missing, and then removed at the end). Default: /tmp/fuse-panama/vault.")
    void mountpoint(Path p) { mountpoint = p; }

    @Option(names = "--passfile", paramLabel = "FILE", description = "Read the password from the first line of FILE instead of the terminal.")
    Path passfile;

    @Override
    public Integer call() throws Exception {
        if (cipherDir == null) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "Missing required parameter: 'CIPHER_DIR'");
        }
        var options = apply(Vault.mountOptions(cipherDir));
        checkInodeApi("vault");
        char[] password = password(passfile, "Password: ", false);
        if (password == null) return 2;
        VaultFileSystem fs;
        try {
            fs = Vault.unlock(cipherDir, password);
        } catch (WrongPasswordException e) {
            LOG.error("vault: wrong password for {}", cipherDir);
            return 2;
        } catch (IOException e) {
            LOG.error("vault: {}", e.getMessage());
            return 2;
        } finally {
            Arrays.fill(password, '\0');
        }
        try (fs) {
            var built = options.build();
            return Main.serve("vault", at -> Vault.mount(fs, at, built), this);
        }
    }

    @Command(name = "init", mixinStandardHelpOptions = true,
            description = "Makes CIPHER_DIR (empty or missing) a new vault that gocryptfs and this command can mount.")
    static final class Init implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "CIPHER_DIR", description = "The directory to make a vault of.")
        Path cipherDir;

        @Option(names = "--passfile", paramLabel = "FILE", description = "Read the password from the first line of FILE instead of the terminal.")
        Path passfile;

        @Option(names = "--scryptn", paramLabel = "LOG2N",
                description = "scrypt cost as log2 of N (default 16, as gocryptfs; lower only for tests).")
        int scryptLogN = Vault.DEFAULT_SCRYPT_LOG_N;

        @Override
        public Integer call() throws Exception {
            char[] password = password(passfile, "New password: ", true);
            if (password == null) return 2;
            try {
                Vault.create(cipherDir, password, scryptLogN);
            } catch (IOException | IllegalArgumentException e) {
                LOG.error("vault init: {}", e.getMessage());
                return 2;
            } finally {
                Arrays.fill(password, '\0');
            }
            LOG.info("vault init: created a vault in {}; mount it with: fuse-panama vault {} MOUNTPOINT", cipherDir, cipherDir);
            return 0;
        }
    }

    /**
     * The password: the first line of {@code file}, or typed at the terminal without echo (twice
     * when {@code confirm}). Null, with the reason logged, if there is none.
     */
    static char[] password(Path file, String prompt, boolean confirm) throws IOException {
        if (file != null) {
            if (!Files.isReadable(file)) {
                LOG.error("vault: cannot read the password file {}", file);
                return null;
            }
            String first = Files.readAllLines(file, StandardCharsets.UTF_8).stream().findFirst().orElse("");
            if (first.isEmpty()) {
                LOG.error("vault: the password file {} has an empty first line", file);
                return null;
            }
            return first.toCharArray();
        }
        Console console = System.console();
        if (console == null || !console.isTerminal()) {
            LOG.error("vault: no terminal to read the password from: use --passfile FILE");
            return null;
        }
        char[] first = console.readPassword("%s", prompt);
        if (first == null || first.length == 0) {
            LOG.error("vault: empty password");
            return null;
        }
        if (confirm) {
            char[] again = console.readPassword("%s", "Repeat: ");
            boolean same = Arrays.equals(first, again);
            if (again != null) Arrays.fill(again, '\0');
            if (!same) {
                Arrays.fill(first, '\0');
                LOG.error("vault: the passwords differ");
                return null;
            }
        }
        return first;
    }
}
