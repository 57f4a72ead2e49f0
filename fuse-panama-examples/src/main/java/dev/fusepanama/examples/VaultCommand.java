package dev.fusepanama.examples;

import dev.fusepanama.vault.Vault;
import dev.fusepanama.vault.VaultFileSystem;
import dev.fusepanama.vault.crypto.WrongPasswordException;
import java.io.Console;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code fuse-panama vault CIPHER_DIR [MOUNTPOINT]} mounts a gocryptfs vault;
 * {@code fuse-panama vault init CIPHER_DIR} makes one. The password comes from the terminal
 * (not echoed) or from the first line of {@code --passfile}. Exit status 2, with one line, for a
 * wrong password, a directory that is not a vault, a configuration it cannot take or a password
 * file it cannot read, before anything is mounted.
 */
@Command(name = "vault", mixinStandardHelpOptions = true,
        description = "Mounts a gocryptfs vault (format 2, gocryptfs's default settings): names and contents are decrypted on the fly.",
        subcommands = VaultCommand.Init.class)
final class VaultCommand extends Main.Common implements Callable<Integer> {
    private static final Logger LOG = LoggerFactory.getLogger("fuse-panama");

    @Parameters(index = "0", arity = "0..1", paramLabel = "CIPHER_DIR", converter = Arguments.NonEmptyPath.class,
            description = "The vault's directory (holding gocryptfs.conf).")
    Path cipherDir;

    @Parameters(index = "1", arity = "0..1", paramLabel = "MOUNTPOINT", converter = Arguments.NonEmptyPath.class,
            description = "Where to mount (created if missing, and then removed at the end). Default: /tmp/fuse-panama/vault.")
    void mountpoint(Path p) { mountpoint = p; }

    @Option(names = "--passfile", paramLabel = "FILE", converter = Arguments.NonEmptyPath.class,
            description = "Read the password from the first line of FILE instead of the terminal.")
    Path passfile;

    @Override
    public Integer call() throws Exception {
        if (cipherDir == null) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "Missing required parameter: 'CIPHER_DIR'");
        }
        var options = apply(Vault.mountOptions(cipherDir));
        checkInodeApi("vault");
        if (!Arguments.existing(spec.commandLine(), "CIPHER_DIR", cipherDir).isDirectory()) {
            throw new Arguments.Refusal(spec.commandLine(), "CIPHER_DIR " + cipherDir + " is not a directory");
        }
        char[] password = password(spec.commandLine(), passfile, "Password: ", false);
        VaultFileSystem fs;
        try {
            fs = Vault.unlock(cipherDir, password);
        } catch (WrongPasswordException e) {
            throw new Arguments.Refusal(spec.commandLine(), "wrong password for " + cipherDir);
        } catch (IOException e) {
            throw new Arguments.Refusal(spec.commandLine(), String.valueOf(e.getMessage()));
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
        @Spec
        CommandSpec spec;

        @Parameters(index = "0", paramLabel = "CIPHER_DIR", converter = Arguments.NonEmptyPath.class,
                description = "The directory to make a vault of (empty or missing).")
        Path cipherDir;

        @Option(names = "--passfile", paramLabel = "FILE", converter = Arguments.NonEmptyPath.class,
                description = "Read the password from the first line of FILE instead of the terminal.")
        Path passfile;

        @Option(names = "--scryptn", paramLabel = "LOG2N", converter = Arguments.ScryptLogN.class,
                description = "scrypt cost as log2 of N, 10 to 27 (default 16, as gocryptfs; lower only for tests).")
        int scryptLogN = Vault.DEFAULT_SCRYPT_LOG_N;

        @Override
        public Integer call() throws Exception {
            CommandLine command = spec.commandLine();
            if (Files.exists(cipherDir, LinkOption.NOFOLLOW_LINKS)) {
                if (!Arguments.existing(command, "CIPHER_DIR", cipherDir).isDirectory()) {
                    throw new Arguments.Refusal(command, "CIPHER_DIR " + cipherDir + " is not a directory: a vault is made in an empty or missing one");
                }
                try (var entries = Files.list(cipherDir)) {
                    if (entries.findAny().isPresent()) {
                        throw new Arguments.Refusal(command, "CIPHER_DIR " + cipherDir + " is not empty: a vault is made in an empty or missing one");
                    }
                } catch (IOException e) {
                    throw new Arguments.Refusal(command, "CIPHER_DIR " + cipherDir + " cannot be listed: " + Arguments.reason(e));
                }
            }
            char[] password = password(command, passfile, "New password: ", true);
            try {
                Vault.create(cipherDir, password, scryptLogN);
            } catch (IOException | IllegalArgumentException e) {
                throw new Arguments.Refusal(command, String.valueOf(e instanceof IOException io ? Arguments.reason(io) : e.getMessage()));
            } finally {
                Arrays.fill(password, '\0');
            }
            LOG.info("vault init: created a vault in {}; mount it with: fuse-panama vault {} MOUNTPOINT", cipherDir, cipherDir);
            return 0;
        }
    }

    /**
     * The password: the first line of {@code file} ({@link Arguments#passfile}), or typed at the
     * terminal without echo (twice when {@code confirm}); refused in one line if there is none.
     */
    static char[] password(CommandLine command, Path file, String prompt, boolean confirm) {
        if (file != null) {
            return Arguments.passfile(command, file);
        }
        Console console = System.console();
        if (console == null || !console.isTerminal()) {
            throw new Arguments.Refusal(command, "no terminal to read the password from: use --passfile FILE");
        }
        char[] first = console.readPassword("%s", prompt);
        if (first == null || first.length == 0) {
            throw new Arguments.Refusal(command, "empty password");
        }
        if (confirm) {
            char[] again = console.readPassword("%s", "Repeat: ");
            boolean same = Arrays.equals(first, again);
            if (again != null) Arrays.fill(again, '\0');
            if (!same) {
                Arrays.fill(first, '\0');
                throw new Arguments.Refusal(command, "the passwords differ");
            }
        }
        return first;
    }
}
