package dev.fusepanama.cryptomator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;

import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

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

    /**
     * What the command cannot take, each one line (not the usage after it, not a stack trace) and
     * exit status 2, with nothing mounted or made: a password file that is missing, empty, a
     * directory, unreadable or endless, an empty path, a malformed mount flag, a mountpoint that
     * cannot be made.
     */
    @Test
    void everyRefusalIsOneLineAndExitStatusTwo() throws Exception {
        Path vault = Files.createDirectory(tmp.resolve("vault"));
        Vaults.create(vault, "correct horse");
        Path right = Files.writeString(tmp.resolve("right"), "correct horse\n");
        Path empty = Files.writeString(tmp.resolve("empty"), "");
        Path file = Files.writeString(tmp.resolve("file"), "x");
        String mnt = tmp.resolve("mnt").toString();
        String[][] cases = {
                {"--passfile " + tmp.resolve("missing") + " does not exist", "--passfile", tmp.resolve("missing").toString(), vault.toString(), mnt},
                {"--passfile " + tmp + " is a directory", "--passfile", tmp.toString(), vault.toString(), mnt},
                {"its first line is empty", "--passfile", empty.toString(), vault.toString(), mnt},
                {"its first line is empty", "--passfile", "/dev/null", vault.toString(), mnt},
                {"--passfile /proc/self/mem cannot be read", "--passfile", "/proc/self/mem", vault.toString(), mnt},
                {"its first line is longer than", "--passfile", "/dev/zero", vault.toString(), mnt},
                {"--passfile needs a file: '' is an empty path", "--passfile", "", vault.toString(), mnt},
                {"VAULT_DIR '' is an empty path", "--passfile", right.toString(), "", mnt},
                {"MOUNTPOINT '' is an empty path", "--passfile", right.toString(), vault.toString(), ""},
                {"-oattr_timeout=-3: -3 is not a number of seconds >= 0", "--passfile", right.toString(), vault.toString(), mnt, "-o", "attr_timeout=-3"},
                {"-oattr_timeout=NaN", "--passfile", right.toString(), vault.toString(), mnt, "-o", "attr_timeout=NaN"},
                {"-oumask=999: 999 is not a umask in octal", "--passfile", right.toString(), vault.toString(), mnt, "-o", "umask=999"},
                {"unknown option --frobnicate", "--frobnicate", vault.toString()},
                {"give VAULT_DIR", "--passfile", right.toString()},
                {"cannot create the mountpoint " + file + "/mnt", "--passfile", right.toString(), vault.toString(), file + "/mnt"},
                {"--passfile " + tmp + " is a directory", "init", "--passfile", tmp.toString(), tmp.resolve("new").toString()},
                {"VAULT_DIR '' is an empty path", "init", "--passfile", right.toString(), ""},
        };
        List<String> failed = new ArrayList<>();
        for (String[] c : cases) {
            String[] args = Arrays.copyOfRange(c, 1, c.length);
            ListAppender<ILoggingEvent> log = new ListAppender<>();
            Logger logger = (Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME);
            log.start();
            logger.addAppender(log);
            int code;
            try {
                code = CryptomatorCommand.run(args);
            } finally {
                logger.detachAppender(log);
            }
            List<String> lines = log.list.stream().filter(e -> e.getLevel().isGreaterOrEqual(Level.WARN))
                    .flatMap(e -> (e.getFormattedMessage() + (e.getThrowableProxy() == null ? "" : "\n[a stack trace]")).lines()).toList();
            if (code != 2 || lines.size() != 1 || !lines.getFirst().startsWith("cryptomator") || !lines.getFirst().contains(c[0])
                    || lines.getFirst().contains("Exception")) {
                failed.add(String.join(" ", args) + " -> " + code + ": " + String.join(" | ", lines));
            }
        }
        assertEquals(List.of(), failed, "one line naming it, exit status 2");
        assertFalse(Files.exists(tmp.resolve("mnt")), "nothing mounted");
        assertFalse(Files.exists(tmp.resolve("new")), "no vault made");
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
