package dev.fusepanama.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.fusepanama.KernelSettings;
import dev.fusepanama.MountOptions;
import dev.fusepanama.testkit.ChildJvm;
import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.TestMount;
import dev.fusepanama.vault.Vault;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

class MainTest {
    @Test
    @org.junit.jupiter.api.Timeout(value = 60, threadMode = org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD)
    void contradictoryMountOptionsAreAUsageErrorBeforeAnythingIsMounted(@TempDir Path tmp) {
        java.io.StringWriter err = new java.io.StringWriter();
        int code = Main.commandLine().setErr(new java.io.PrintWriter(err))
                .execute("hello", tmp.resolve("mnt").toString(), "-o", "umask=022,ro", "-o", "rw");
        assertEquals(2, code);
        assertTrue(err.toString().contains("-o ro and -o rw contradict each other"), err.toString());
        assertFalse(Files.exists(tmp.resolve("mnt")), "nothing created");
    }

    @Test
    void fusesOwnMountOptionsSetTheTypedSettings() {
        Main.Common c = new Main.Common();
        c.options = List.of("allow_other,fsname=demo", "max_read=65536", "umask=022");
        MountOptions o = c.apply(MountOptions.builder()).build();
        assertTrue(o.allowOther());
        assertEquals("demo", o.fsName());
        assertEquals(65536, o.maxRead());
        assertTrue(o.libfuseOptions().contains("umask=022"));
    }

    @Test
    void fusesCommonOptionsMapOntoTheTypedSettingsOrPassOn() {
        Main.Common c = new Main.Common();
        c.options = List.of("allow_other,allow_root,ro,default_permissions", "fsname=demo,subtype=kind,max_read=65536",
                "auto_unmount,nosuid,nodev,noexec,noatime,uid=1000,gid=100,umask=022,attr_timeout=2");
        MountOptions o = c.apply(MountOptions.builder()).build();
        assertTrue(o.allowOther());
        assertTrue(o.readOnly());
        assertTrue(o.defaultPermissions());
        assertEquals("demo", o.fsName());
        assertEquals("kind", o.subtype());
        assertEquals(65536, o.maxRead());
        assertEquals(List.of("allow_root", "auto_unmount", "nosuid", "nodev", "noexec", "noatime", "uid=1000", "gid=100", "umask=022"),
                o.rawOptions(), "passed on to libfuse as they are");
        assertEquals(2.0, c.settings(KernelSettings.DEFAULTS).attrTimeout().orElseThrow());
        assertEquals(List.of("attr_timeout=2"), c.kernelOptions, "the filesystem's settings, applied over its own");
        assertEquals(List.of("-o uid=1000", "-o gid=100", "-o umask=022", "-o attr_timeout=2"), c.pathSettings,
                "what a filesystem on the inode API cannot take");

        Main.Common rw = new Main.Common();
        rw.options = List.of("rw");
        assertFalse(rw.apply(MountOptions.builder().readOnly(true)).build().readOnly(), "-o rw undoes a filesystem's ro default");
    }

    /**
     * The launcher's message for {@code args}, which it must refuse before mounting: exit status
     * 2 and one line on stderr (picocli's, or logged), nothing created at tmp/mnt, no stack trace.
     */
    private static String refusal(Path tmp, String... args) {
        StringWriter err = new StringWriter();
        ListAppender<ILoggingEvent> log = new ListAppender<>();
        Logger logger = (Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME);
        log.start();
        logger.addAppender(log);
        int code;
        try {
            code = Main.commandLine().setErr(new PrintWriter(err)).execute(args);
        } finally {
            logger.detachAppender(log);
        }
        List<String> lines = new ArrayList<>(err.toString().lines().toList());
        log.list.stream().filter(e -> e.getLevel().isGreaterOrEqual(Level.WARN))
                .map(e -> e.getFormattedMessage() + (e.getThrowableProxy() == null ? "" : " [with a stack trace]")).forEach(lines::add);
        String all = String.join("\n", lines);
        assertEquals(2, code, String.join(" ", args) + ": " + all);
        assertEquals(1, lines.size(), String.join(" ", args) + ": one line, not\n" + all);
        String message = lines.getFirst();
        assertFalse(Files.exists(tmp.resolve("mnt")), "nothing created or mounted");
        assertFalse(message.contains("Builder") || message.contains("PathOptions") || message.contains("MountOptions")
                || message.contains("Exception") || message.contains("[with a stack trace]"),
                "in a shell user's words, without Java names: " + message);
        return message;
    }

    /**
     * Every option and parameter of every command, given what it cannot take: NaN, negative,
     * zero where it means nothing, overflow, a garbage suffix, an empty string, a path that is not
     * what it must be, a password file that cannot be read. Each is one line naming it, exit status
     * 2, nothing mounted, nothing made, no password asked for.
     */
    @Test
    @Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void everyValueACommandCannotTakeIsOneLineAndExitStatusTwo(@TempDir Path tmp) throws Exception {
        String mnt = tmp.resolve("mnt").toString();
        String source = Files.createDirectory(tmp.resolve("source")).toString();
        Files.writeString(tmp.resolve("source/f"), "x");
        String file = Files.writeString(tmp.resolve("file"), "not a zip\n").toString();
        String pass = Files.writeString(tmp.resolve("pass"), "correct horse\n").toString();
        String wrong = Files.writeString(tmp.resolve("wrong"), "wrong horse\n").toString();
        String empty = Files.writeString(tmp.resolve("empty"), "").toString();
        String loop = Files.createSymbolicLink(tmp.resolve("loop"), Path.of("loop")).toString();
        Path vaultDir = tmp.resolve("vault");
        Vault.create(vaultDir, "correct horse".toCharArray(), 10);
        String vault = vaultDir.toString();
        Path costly = tmp.resolve("costly");
        Vault.create(costly, "correct horse".toCharArray(), 10);
        Path conf = costly.resolve("gocryptfs.conf");
        String text = Files.readString(conf).replace("\"N\": 1024", "\"N\": 268435456");
        Files.delete(conf);
        Files.writeString(conf, text);
        Path hostileZip = tmp.resolve("hostile.zip");
        try (var zip = new java.util.zip.ZipOutputStream(Files.newOutputStream(hostileZip))) {
            zip.putNextEntry(new java.util.zip.ZipEntry(""));
            zip.closeEntry();
        }
        String newVault = tmp.resolve("new-vault").toString();
        String[][] cases = {
                {"'12QQ' is not a size", "memfs", mnt, "--max-size", "12QQ"},
                {"'99999999999999999999T' is more than a size can be", "memfs", mnt, "--max-size", "99999999999999999999T"},
                {"'9999999999T' is more than a size can be", "memfs", mnt, "--max-size", "9999999999T"},
                {"'0' is not a size", "memfs", mnt, "--max-size", "0"},
                {"'' is not a size", "memfs", mnt, "--max-size", ""},
                {"'-1G' is not a size", "memfs", mnt, "--max-size", "-1G"},
                {"'1.5G' is not a size", "memfs", mnt, "--max-size", "1.5G"},
                {"'-5' is not a number of files", "memfs", mnt, "--max-inodes", "-5"},
                {"'1' is not a number of files: a whole number from 2", "memfs", mnt, "--max-inodes", "1"},
                {"'0' is not a number of files", "memfs", mnt, "--max-inodes", "0"},
                {"'99999999999999999999' is not a number of files", "memfs", mnt, "--max-inodes", "99999999999999999999"},
                {"'' is an empty path", "memfs", ""},
                {"Unmatched argument", "memfs", mnt, "extra"},
                {"Unknown option: '--bogus'", "memfs", mnt, "--bogus"},
                {"'-3' is not a number of seconds", "hello", mnt, "--attr-timeout", "-3"},
                {"'NaN' is not a number of seconds", "hello", mnt, "--attr-timeout", "NaN"},
                {"'1e400' is not a number of seconds", "hello", mnt, "--attr-timeout", "1e400"},
                {"'1d' is not a number of seconds", "hello", mnt, "--attr-timeout", "1d"},
                {"'' is not a number of seconds", "hello", mnt, "--entry-timeout", ""},
                {"'Infinity' is not a number of seconds", "hello", mnt, "--entry-timeout", "Infinity"},
                {"'-1' is not a number of threads", "hello", mnt, "--max-threads", "-1"},
                {"'0' is not a number of threads", "hello", mnt, "--max-threads", "0"},
                {"'100001' is not a number of threads: a whole number from 1 to 100000", "hello", mnt, "--max-threads", "100001"},
                {"'99999999999' is not a number of threads", "hello", mnt, "--max-threads", "99999999999"},
                {"--max-threads 4 and --single-threaded contradict each other", "hello", mnt, "--max-threads", "4", "--single-threaded"},
                {"-o max_read=0: maxRead must be at least 4096", "hello", mnt, "-o", "max_read=0"},
                {"-o max_threads=-4: maxThreads must be 1..100000", "hello", mnt, "-o", "max_threads=-4"},
                {"-o attr_timeout=NaN: a timeout is a finite number of seconds >= 0", "hello", mnt, "-o", "attr_timeout=NaN"},
                {"-o entry_timeout=1e400: a timeout is a finite number", "hello", mnt, "-o", "entry_timeout=1e400"},
                {"-o umask=999: umask takes an octal mask", "hello", mnt, "-o", "umask=999"},
                {"-o uid=-1: uid takes a user or group number", "hello", mnt, "-o", "uid=-1"},
                {"-o uid=4294967295: uid takes a user or group number", "hello", mnt, "-o", "uid=4294967295"},
                {"-o gid=x: gid takes", "hello", mnt, "-o", "gid=x"},
                {"-o ac_attr_timeout=-1: ac_attr_timeout takes a finite number of seconds", "hello", mnt, "-o", "ac_attr_timeout=-1"},
                {"an empty option in -o", "hello", mnt, "-o", ""},
                {"-o fsname= needs a value: fsname=VALUE", "hello", mnt, "-o", "fsname="},
                {"'-1' is not a number of seconds", "mirror", source, mnt, "--cache", "-1"},
                {"'NaN' is not a number of seconds", "mirror", source, mnt, "--cache", "NaN"},
                {"'1e400' is not a number of seconds", "mirror", source, mnt, "--cache", "1e400"},
                {"'' is an empty path", "mirror", "", mnt},
                {"SOURCE_DIR " + tmp.resolve("missing") + " does not exist", "mirror", tmp.resolve("missing").toString(), mnt},
                {"SOURCE_DIR " + file + " is not a directory", "mirror", file, mnt},
                {"SOURCE_DIR " + loop + " cannot be examined", "mirror", loop, mnt},
                {"is inside the source", "mirror", source, source + "/inner"},
                {"cannot create the mountpoint " + file + "/x", "mirror", source, file + "/x"},
                {"cannot create the mountpoint " + file + "/x/y", "memfs", file + "/x/y"},
                {"--passfile " + tmp.resolve("missing") + " does not exist", "vault", vault, mnt, "--passfile", tmp.resolve("missing").toString()},
                {"--passfile " + tmp + " is a directory", "vault", vault, mnt, "--passfile", tmp.toString()},
                {"--passfile /dev/null: its first line is empty", "vault", vault, mnt, "--passfile", "/dev/null"},
                {"--passfile " + empty + ": its first line is empty", "vault", vault, mnt, "--passfile", empty},
                {"--passfile /proc/self/mem cannot be read", "vault", vault, mnt, "--passfile", "/proc/self/mem"},
                {"--passfile /dev/zero: its first line is longer than 2048 bytes", "vault", vault, mnt, "--passfile", "/dev/zero"},
                {"'' is an empty path", "vault", vault, mnt, "--passfile", ""},
                {"'' is an empty path", "vault", "", mnt, "--passfile", pass},
                {"CIPHER_DIR " + tmp.resolve("missing") + " does not exist", "vault", tmp.resolve("missing").toString(), mnt, "--passfile", pass},
                {"is not a gocryptfs vault", "vault", source, mnt, "--passfile", pass},
                {"Missing required parameter: 'CIPHER_DIR'", "vault"},
                {"wrong password for " + vault, "vault", vault, mnt, "--passfile", wrong},
                {"scrypt N = 2^28 is outside 2^10..2^27", "vault", costly.toString(), mnt, "--passfile", pass},
                {"these options are for filesystems on libfuse's path API", "vault", vault, mnt, "--attr-timeout", "1", "--passfile", pass},
                {"'99' is not a scrypt cost: log2 of N, a whole number from 10 to 27", "vault", "init", newVault, "--scryptn", "99"},
                {"'28' is not a scrypt cost", "vault", "init", newVault, "--scryptn", "28"},
                {"'9' is not a scrypt cost", "vault", "init", newVault, "--scryptn", "9"},
                {"'-1' is not a scrypt cost", "vault", "init", newVault, "--scryptn", "-1"},
                {"no terminal to read the password from", "vault", "init", newVault},
                {"--passfile " + tmp + " is a directory", "vault", "init", newVault, "--passfile", tmp.toString()},
                {"'' is an empty path", "vault", "init", "", "--passfile", pass},
                {"CIPHER_DIR " + file + " is not a directory", "vault", "init", file, "--passfile", pass},
                {"CIPHER_DIR " + source + " is not empty", "vault", "init", source, "--passfile", pass},
                {"'' is an empty path", "zip", "", mnt},
                {"ARCHIVE " + tmp.resolve("missing.zip") + " does not exist", "zip", tmp.resolve("missing.zip").toString(), mnt},
                {"ARCHIVE " + tmp + " is not a file", "zip", tmp.toString(), mnt},
                {file + " is not a zip archive", "zip", file, mnt},
                {file + " is not a zip archive", "zip", file, mnt, "--writable"},
                {"no such file or directory", "zip", tmp.resolve("missing/new.zip").toString(), mnt, "--writable"},
                {"mount it without --writable", "zip", hostileZip.toString(), mnt, "--writable"},
        };
        List<String> failed = new ArrayList<>();
        for (String[] c : cases) {
            String[] args = java.util.Arrays.copyOfRange(c, 1, c.length);
            try {
                String message = refusal(tmp, args);
                String command = "fuse-panama " + (args.length > 1 && args[1].equals("init") ? "vault init" : args[0]) + ": ";
                if (!message.startsWith(command) || !message.contains(c[0])) failed.add(String.join(" ", args) + ": " + message);
            } catch (AssertionError e) {
                failed.add(e.getMessage());
            }
        }
        assertEquals(List.of(), failed, "refused in one line naming it");
        assertFalse(Files.exists(Path.of(newVault)), "no vault made");
        assertEquals(List.of("f"), Files.list(Path.of(source)).map(p -> p.getFileName().toString()).toList(), "the source untouched");
    }

    @Test
    void unknownAndContradictoryOptionsAreRefusedInAShellUsersWords(@TempDir Path tmp) throws IOException {
        String mnt = tmp.resolve("mnt").toString();
        Path source = Files.createDirectory(tmp.resolve("source"));
        assertEquals("fuse-panama memfs: -o bogus: no FUSE option named bogus is taken here; the options are allow_other, allow_root, ro, rw, "
                + "default_permissions, fsname=NAME, subtype=NAME, max_read=BYTES, auto_unmount, nosuid, nodev, noexec, noatime, "
                + "attr_timeout=SECONDS, ... (the launcher's own options: --help)", refusal(tmp, "memfs", mnt, "-o", "allow_other,bogus"));
        assertEquals("fuse-panama memfs: -o ro and -o rw contradict each other (the launcher's own options: --help)",
                refusal(tmp, "memfs", mnt, "-o", "ro,rw"));
        assertEquals("fuse-panama memfs: --read-only and -o rw contradict each other (the launcher's own options: --help)",
                refusal(tmp, "memfs", mnt, "--read-only", "-o", "rw"));
        assertEquals("fuse-panama hello: --attr-timeout 2.0 and -o attr_timeout=3 contradict each other (the launcher's own options: --help)",
                refusal(tmp, "hello", mnt, "--attr-timeout", "2", "-o", "attr_timeout=3"));
        assertTrue(refusal(tmp, "hello", mnt, "-o", "max_read=lots").startsWith("fuse-panama hello: -o max_read=lots: lots is not a whole number"));
        assertTrue(refusal(tmp, "hello", mnt, "-o", "fsname").startsWith("fuse-panama hello: -o fsname needs a value: fsname=VALUE"));
        assertTrue(refusal(tmp, "hello", mnt, "-o", "ro=1").startsWith("fuse-panama hello: -o ro takes no value: ro=1"));
        for (String[] inode : List.of(new String[] {"memfs", mnt}, new String[] {"mirror", source.toString(), mnt})) {
            List<String> args = new ArrayList<>(List.of(inode));
            args.addAll(List.of("-o", "uid=1000,umask=022"));
            String message = refusal(tmp, args.toArray(String[]::new));
            assertTrue(message.startsWith("fuse-panama " + inode[0] + ": -o uid=1000, -o umask=022: " + inode[0]
                    + " reports each file's own owner and mode"), message);
            assertTrue(message.contains("path API (hello)"), message);
        }
    }

    /**
     * Whether auto_unmount can work with this libfuse and the system's fusermount3: libfuse 3.17+
     * hands it over as {@code --auto-unmount}, which an older fusermount3 refuses (libfuse then
     * mounts without it). A distribution ships the two together; the version matrix runs newer
     * libfuse releases with the system's fusermount3 (3.14 on Debian 12).
     */
    private static boolean fusermountTakesAutoUnmount() throws Exception {
        if (!TestMount.libfuseAtLeast(3, 17)) {
            return true;
        }
        Process v = new ProcessBuilder("fusermount3", "--auto-unmount", "-V").redirectErrorStream(true).start();
        v.getInputStream().readAllBytes();
        return v.waitFor() == 0;
    }

    /**
     * FUSE's options through the command as a user runs it (another JVM, as ./fuse-panama starts
     * it): the kernel's view of the mount in /proc/mounts, the owners and modes libfuse's path API
     * sets, and auto_unmount, which leaves nothing mounted when the process is killed.
     */
    @Test
    @MountTest
    @Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void fusesOptionsReachTheMount(@TempDir Path tmp) throws Exception {
        Path memfs = tmp.resolve("memfs");
        Process p = launch(tmp, "memfs", memfs.toString(), "--max-size", "16M",
                "-o", "ro,allow_root,fsname=demo,subtype=kind,max_read=65536", "-o", "nosuid,noexec,auto_unmount");
        try {
            String line = awaitMount(p, memfs, tmp);
            String[] fields = line.split(" ");
            assertEquals("demo", fields[0], line);
            assertEquals("fuse.kind", fields[2], line);
            List<String> options = List.of(fields[3].split(","));
            // allow_root is allow_other to the kernel; libfuse itself turns away other users but root
            for (String o : List.of("ro", "nosuid", "noexec", "max_read=65536", "allow_other", "default_permissions")) {
                assertTrue(options.contains(o), o + " in " + line);
            }
            assertThrows(java.nio.file.FileSystemException.class, () -> Files.writeString(memfs.resolve("f"), "x"), "read-only");
            p.destroyForcibly(); // SIGKILL: no clean unmount; auto_unmount's fusermount3 unmounts
            assertTrue(p.waitFor(30, TimeUnit.SECONDS));
            if (fusermountTakesAutoUnmount()) {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (mountLine(memfs) != null && System.nanoTime() < deadline) Thread.sleep(50);
                assertEquals(null, mountLine(memfs), "auto_unmount unmounted after the process was killed");
            }
        } finally {
            stop(p, memfs);
        }

        Path hello = tmp.resolve("hello");
        p = launch(tmp, "hello", hello.toString(), "-o", "uid=4242,gid=4243,umask=027");
        try {
            awaitMount(p, hello, tmp);
            assertEquals(4242, Files.getAttribute(hello.resolve("hello"), "unix:uid"));
            assertEquals(4243, Files.getAttribute(hello.resolve("hello"), "unix:gid"));
            assertEquals(0750, (int) Files.getAttribute(hello.resolve("hello"), "unix:mode") & 07777,
                    "libfuse sets the mode to 0777 less the umask, whatever the filesystem said");
            p.destroy(); // SIGTERM: a clean unmount
            assertTrue(p.waitFor(30, TimeUnit.SECONDS));
            assertEquals(0, p.exitValue());
            assertEquals(null, mountLine(hello));
        } finally {
            stop(p, hello);
        }
    }

    /**
     * A zip archive whose central directory names an entry "" (zipfs takes it for its root, a
     * file then, and the command died with NotDirectoryException) and one with a ".." element
     * (zipfs refuses the whole archive for it): the command mounts the other entries, read-only,
     * from a copy in the temporary directory that is gone when it ends, and warns once for each
     * entry left out, as the NIO adapter does for a name no directory holds (256 bytes).
     */
    @Test
    @MountTest
    @Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void anArchiveWithEntriesZipfsCannotServeIsMountedWithTheOthers(@TempDir Path tmp) throws Exception {
        Path archive = tmp.resolve("hostile.zip");
        try (var zip = new java.util.zip.ZipOutputStream(Files.newOutputStream(archive))) {
            for (String[] entry : List.of(new String[] {"good.txt", "good\n"}, new String[] {"", "nameless"},
                    new String[] {"sub/inner.txt", "inner\n"}, new String[] {"up/../escape.txt", "escaped"},
                    new String[] {"n".repeat(256), "long"})) {
                zip.putNextEntry(new java.util.zip.ZipEntry(entry[0]));
                zip.write(entry[1].getBytes(StandardCharsets.UTF_8));
                zip.closeEntry();
            }
        }
        Path javaTmp = Files.createDirectory(tmp.resolve("java-tmp"));
        Path mnt = tmp.resolve("mnt");
        Process p = new ProcessBuilder(ChildJvm.command(List.of("-Djava.io.tmpdir=" + javaTmp), System.getProperty("java.class.path"),
                Main.class, "zip", archive.toString(), mnt.toString())).redirectErrorStream(true)
                .redirectOutput(tmp.resolve("mnt.log").toFile()).start();
        try {
            awaitMount(p, mnt, tmp);
            try (var names = Files.list(mnt)) {
                assertEquals(List.of("good.txt", "sub"), names.map(f -> f.getFileName().toString()).sorted().toList());
            }
            assertEquals("good\n", Files.readString(mnt.resolve("good.txt")));
            assertEquals("inner\n", Files.readString(mnt.resolve("sub/inner.txt")));
            try (var copies = Files.list(javaTmp)) {
                assertEquals(1, copies.filter(f -> f.getFileName().toString().startsWith("fuse-panama-zip-")).count(), "served from one copy");
            }
            p.destroy(); // SIGTERM: a clean unmount
            assertTrue(p.waitFor(30, TimeUnit.SECONDS));
            assertEquals(0, p.exitValue(), Files.readString(tmp.resolve("mnt.log")));
            try (var left = Files.list(javaTmp)) {
                assertEquals(List.of(), left.toList(), "the copy is removed at the end");
            }
            List<String> warnings = Files.readAllLines(tmp.resolve("mnt.log")).stream().filter(l -> l.contains("left out")).toList();
            assertEquals(3, warnings.size(), String.join("\n", warnings));
            assertTrue(warnings.stream().anyMatch(w -> w.contains("the entry \"\": an empty name")), warnings.toString());
            assertTrue(warnings.stream().anyMatch(w -> w.contains("the entry \"up/../escape.txt\": a '..' in its name")), warnings.toString());
        } finally {
            stop(p, mnt);
        }
    }

    private static Process launch(Path tmp, String... args) throws IOException {
        return new ProcessBuilder(ChildJvm.command(Main.class, args)).redirectErrorStream(true)
                .redirectOutput(tmp.resolve(args[0] + ".log").toFile()).start();
    }

    /**
     * Waits for the command's start-up line, which it writes once mount has returned and it
     * serves (and handles SIGTERM): the kernel lists the mount a little earlier, while the mount
     * still waits for libfuse's INIT reply. Returns the /proc/mounts line.
     */
    private static String awaitMount(Process p, Path at, Path tmp) throws Exception {
        Path log = tmp.resolve(at.getFileName() + ".log");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!(mountLine(at) != null && Files.readString(log, StandardCharsets.UTF_8).contains(" mounted at " + at))
                && p.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        String line = mountLine(at);
        assertTrue(line != null && Files.readString(log, StandardCharsets.UTF_8).contains(" mounted at " + at),
                "mounted: " + Files.readString(log, StandardCharsets.UTF_8));
        return line;
    }

    /** The /proc/mounts line of the mount at {@code at}, or null. */
    private static String mountLine(Path at) throws IOException {
        return Files.readAllLines(Path.of("/proc/self/mounts")).stream().filter(l -> l.split(" ")[1].equals(at.toString()))
                .findFirst().orElse(null);
    }

    /** Leaves nothing behind, whatever failed. */
    private static void stop(Process p, Path at) throws Exception {
        p.destroyForcibly();
        p.waitFor(30, TimeUnit.SECONDS);
        if (mountLine(at) != null) {
            new ProcessBuilder("fusermount3", "-u", "-z", at.toString()).inheritIO().start().waitFor(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void sizesParseLikeMountOptions() {
        assertEquals(512L << 20, Arguments.parseSize("512M"));
        assertEquals(2L << 30, Arguments.parseSize("2g"));
        assertEquals(4096, Arguments.parseSize("4096"));
        assertEquals(7L << 60, Arguments.parseSize("7E"));
        List.of("", "12X", "-1G", "M", "8E", " 1K", "1K ").forEach(bad -> {
            try {
                Arguments.parseSize(bad);
                throw new AssertionError("accepted " + bad);
            } catch (picocli.CommandLine.TypeConversionException expected) {
                // refused
            }
        });
    }

    @Test
    void aMountpointMadeByTheLauncherIsRemovedAndNothingElse(@TempDir Path tmp) throws IOException {
        Path existing = Files.createDirectory(tmp.resolve("existing"));
        Path mountpoint = existing.resolve("a/b/mnt");
        List<Path> created = Main.createMissing(mountpoint);
        assertEquals(List.of(existing.resolve("a"), existing.resolve("a/b"), mountpoint), created);
        assertTrue(Files.isDirectory(mountpoint));
        Main.removeCreated(created);
        assertFalse(Files.exists(existing.resolve("a")));
        assertTrue(Files.isDirectory(existing), "a directory that was there before is kept");

        assertEquals(List.of(), Main.createMissing(existing), "nothing is made for an existing directory");
        assertTrue(Files.isDirectory(existing));
    }

    @Test
    void aCreatedDirectorySomeoneFilledIsKept(@TempDir Path tmp) throws IOException {
        Path mountpoint = tmp.resolve("x/mnt");
        List<Path> created = Main.createMissing(mountpoint);
        Files.writeString(tmp.resolve("x/keep"), "data");
        Main.removeCreated(created);
        assertFalse(Files.exists(mountpoint), "the empty mountpoint itself goes");
        assertEquals("data", Files.readString(tmp.resolve("x/keep")), "a parent that got content stays, with it");
    }
}
