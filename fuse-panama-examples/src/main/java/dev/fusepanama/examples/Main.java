package dev.fusepanama.examples;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import dev.fusepanama.ForwardingFileSystem;
import dev.fusepanama.Fuse;
import dev.fusepanama.FuseFileSystem;
import dev.fusepanama.KernelSettings;
import dev.fusepanama.Mount;
import dev.fusepanama.MountException;
import dev.fusepanama.MountOptions;
import dev.fusepanama.PathOptions;
import dev.fusepanama.examples.memory.MemoryFileSystem;
import dev.fusepanama.examples.mirror.InodeMirror;
import dev.fusepanama.inode.ForwardingInodeFileSystem;
import dev.fusepanama.inode.InodeFileSystem;
import dev.fusepanama.inode.InodeMount;
import dev.fusepanama.nio.NioFileSystem;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code fuse-panama COMMAND [MOUNTPOINT] [options]}: mounts an example filesystem in the foreground. */
@Command(name = "fuse-panama", mixinStandardHelpOptions = true, version = "fuse-panama 0.1",
        description = "Mounts a Java filesystem through FUSE and serves it until Ctrl-C, SIGTERM or fusermount3 -u.",
        subcommands = {Main.Memfs.class, Main.Hello.class, Main.Mirror.class, VaultCommand.class, Main.Zip.class},
        footer = "%nAlso: fuse-panama cryptomator VAULT_DIR [MOUNTPOINT] unlocks and mounts a Cryptomator vault "
                + "(module fuse-panama-cryptomator, AGPL-3.0; fuse-panama cryptomator --help).%n"
                + "Also: fuse-panama example NAME MOUNTPOINT runs one of the inode API's one-feature examples "
                + "(HelloInode, InvalidateInode, InvalidateEntry, StoreRetrieve, PollReadable, IoctlSize, PassthroughFile).")
public final class Main {
    private static final org.slf4j.Logger LOG = LoggerFactory.getLogger("fuse-panama");

    /** Settings every subcommand shares. */
    static class Common {
        /** Set by each command's own MOUNTPOINT parameter, whose position differs. */
        Path mountpoint;

        @Spec
        CommandSpec spec;

        @Option(names = "-o", paramLabel = "OPTION", description = "FUSE mount options as any FUSE program takes them (repeatable, "
                + "comma lists allowed): allow_other, allow_root, ro, rw, default_permissions, fsname=, subtype=, max_read=, "
                + "auto_unmount, nosuid, noexec, attr_timeout=, ...; uid=, gid=, umask= for hello only "
                + "(libfuse applies them on its path API). A name FUSE does not know, or two that contradict, is refused.")
        List<String> options = new ArrayList<>();

        @Option(names = "--read-only", description = "Mount read-only.")
        boolean readOnly;

        @Option(names = "--allow-other", description = "Let other users access the mount.")
        boolean allowOther;

        @Option(names = "--attr-timeout", paramLabel = "SECONDS", converter = Arguments.Seconds.class,
                description = "Kernel attribute cache time (libfuse default 1).")
        Double attrTimeout;

        @Option(names = "--entry-timeout", paramLabel = "SECONDS", converter = Arguments.Seconds.class,
                description = "Kernel name cache time (libfuse default 1).")
        Double entryTimeout;

        @Option(names = "--max-threads", paramLabel = "N", converter = Arguments.Threads.class,
                description = "Most libfuse worker threads, 1 to 100000 (default 10).")
        Integer maxThreads;

        @Option(names = "--single-threaded", description = "Serve requests on one thread.")
        boolean singleThreaded;

        @Option(names = "--debug", description = "Log every FUSE request (libfuse's trace).")
        boolean debug;

        @Option(names = "--io-uring", description = "Take requests over io_uring where the kernel and libfuse allow it "
                + "(libfuse 3.18+, fuse module parameter enable_uring on); otherwise /dev/fuse. The start-up line says which.")
        boolean ioUring;

        /** The path layer's settings given (its -o names), made by {@link #apply}. */
        final PathOptions.Builder path = PathOptions.builder();
        /** The kernel settings given (--attr-timeout, --entry-timeout, their -o names), applied over the filesystem's own by {@link #settings}. */
        final List<String> kernelOptions = new ArrayList<>();
        /** What set them, and the -o options of libfuse's path API, to name them where a filesystem on the inode API cannot take them. */
        final List<String> pathSettings = new ArrayList<>();

        /**
         * Sets {@code b} from the options given: the typed mount settings, FUSE's -o options
         * ({@link MountOptions.Builder#fuseOptions}; the path API's ones into {@link #path}).
         *
         * @throws ParameterException for an -o name FUSE does not have, a malformed value, or
         *         options that contradict each other (also one -o and one of the launcher's flags)
         */
        MountOptions.Builder apply(MountOptions.Builder b) {
            b.readOnly(readOnly).allowOther(allowOther).singleThreaded(singleThreaded).debug(debug).ioUring(ioUring);
            if (attrTimeout != null) {
                kernelOptions.add("attr_timeout=" + attrTimeout);
                pathSettings.add("--attr-timeout");
            }
            if (entryTimeout != null) {
                kernelOptions.add("entry_timeout=" + entryTimeout);
                pathSettings.add("--entry-timeout");
            }
            if (maxThreads != null) b.maxThreads(maxThreads);
            List<String> mountOptions = new ArrayList<>();
            Map<String, String> pathSeen = new HashMap<>();
            if (attrTimeout != null) pathSeen.put("attr_timeout", "--attr-timeout " + attrTimeout);
            if (entryTimeout != null) pathSeen.put("entry_timeout", "--entry-timeout " + entryTimeout);
            try {
                for (String list : options) {
                    for (String o : list.split(",", -1)) {
                        if (o.isEmpty()) {
                            throw new IllegalArgumentException("an empty option in -o " + list);
                        }
                        String name = MountOptions.optionName(o);
                        if (MountOptions.isMountOption(o)) {
                            mountOptions.add(o);
                        } else if (PathOptions.isPassedOn(o)) {
                            checkPassedOn(o);
                            mountOptions.add(o);
                            pathSettings.add("-o " + o);
                        } else if (PathOptions.isSetting(o) || KernelSettings.isSetting(o)) {
                            String before = pathSeen.put(name.replace("noauto_cache", "auto_cache")
                                    .replace("no_auto_inval_data", "auto_inval_data"), o);
                            if (before != null && !sameSetting(before, o)) {
                                throw new IllegalArgumentException(quote(before) + " and -o " + o + " contradict each other");
                            }
                            if (PathOptions.isSetting(o)) {
                                path.fuseOption(o);
                            } else {
                                KernelSettings.builder().fuseOption(o); // refuses a bad value now, not at mount
                                kernelOptions.add(o);
                            }
                            if (!BOTH_APIS.contains(name)) pathSettings.add("-o " + o);
                        } else {
                            throw new IllegalArgumentException("-o " + o + ": no FUSE option named " + name + " is taken here; the options are "
                                    + "allow_other, allow_root, ro, rw, default_permissions, fsname=NAME, subtype=NAME, "
                                    + "max_read=BYTES, auto_unmount, nosuid, nodev, noexec, noatime, attr_timeout=SECONDS, ...");
                        }
                    }
                }
                // in one call, so that contradictions between two -o are seen
                b.fuseOptions(String.join(" ", mountOptions.stream().map(o -> "-o " + o).toList()));
                MountOptions made = b.build();
                if (readOnly && !made.readOnly()) {
                    throw new IllegalArgumentException("--read-only and -o rw contradict each other");
                }
                if (maxThreads != null && singleThreaded) {
                    throw new IllegalArgumentException("--max-threads " + maxThreads + " and --single-threaded contradict each other");
                }
                if (maxThreads != null && made.maxThreads() != maxThreads) {
                    throw new IllegalArgumentException("--max-threads " + maxThreads + " and -o max_threads=" + made.maxThreads()
                            + " contradict each other");
                }
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), e.getMessage() + " (the launcher's own options: --help)");
            }
            return b;
        }

        /**
         * Refuses a value libfuse's path API would refuse only when mounting (or take for
         * another): an owner that is not a number of 0 to 2^32 - 2, a mask that is not octal up to
         * 7777, a cache time that is not seconds, a remember time that is not whole seconds.
         */
        private static void checkPassedOn(String option) {
            String name = MountOptions.optionName(option);
            String value = name.length() == option.length() ? "" : option.substring(name.length() + 1);
            String wanted = switch (name) {
                case "uid", "gid" -> value.matches("\\d{1,10}") && Long.parseLong(value) <= 0xFFFF_FFFEL ? null
                        : "a user or group number, 0 to 4294967294";
                case "umask", "fmask", "dmask" -> value.matches("[0-7]{1,4}") ? null : "an octal mask, 0 to 7777 (e.g. 022)";
                case "remember" -> value.matches("\\d{1,9}") ? null : "whole seconds, 0 to 999999999";
                case "ac_attr_timeout" -> {
                    try {
                        new Arguments.Seconds().convert(value);
                        yield null;
                    } catch (CommandLine.TypeConversionException e) {
                        yield "a finite number of seconds >= 0";
                    }
                }
                default -> null;
            };
            if (wanted != null) throw new IllegalArgumentException("-o " + option + ": " + name + " takes " + wanted);
        }

        /** Whether two spellings of one path setting say the same ({@code --attr-timeout 1} and {@code -o attr_timeout=1.0}). */
        private static boolean sameSetting(String a, String b) {
            if (a.equals(b)) return true;
            try {
                return Double.parseDouble(a.substring(a.lastIndexOf(a.startsWith("--") ? ' ' : '=') + 1))
                        == Double.parseDouble(b.substring(b.indexOf('=') + 1));
            } catch (NumberFormatException | StringIndexOutOfBoundsException e) {
                return false;
            }
        }

        /** The kernel settings of -o that a filesystem on the inode API takes too. */
        private static final Set<String> BOTH_APIS = Set.of("negative_timeout", "auto_inval_data", "no_auto_inval_data");

        /** The filesystem's own kernel settings with those given on the command line over them. */
        KernelSettings settings(KernelSettings own) {
            KernelSettings.Builder b = own.toBuilder();
            for (String o : kernelOptions) {
                b.fuseOption(o);
            }
            return b.build();
        }

        /** {@code fs}, with the kernel settings given on the command line over its own, if any. */
        FuseFileSystem withSettings(FuseFileSystem fs) {
            return kernelOptions.isEmpty() ? fs : ForwardingFileSystem.withKernelSettings(fs, settings(fs.kernelSettings()));
        }

        /** {@code fs}, with the kernel settings given on the command line over its own, if any. */
        InodeFileSystem withSettings(InodeFileSystem fs) {
            return kernelOptions.isEmpty() ? fs : ForwardingInodeFileSystem.withKernelSettings(fs, settings(fs.kernelSettings()));
        }

        private static String quote(String setting) {
            return setting.startsWith("--") ? setting : "-o " + setting;
        }

        /**
         * Refuses what only the path API takes, for the filesystem {@code name} on the inode API
         * (memfs, mirror, vault), which sends its timeouts and open flags with each reply and
         * reports owners and modes itself.
         */
        void checkInodeApi(String name) {
            if (!pathSettings.isEmpty()) {
                throw new ParameterException(spec.commandLine(), String.join(", ", pathSettings) + ": " + name
                        + " reports each file's own owner and mode (chown and chmod inside the mount change them) and tells"
                        + " the kernel itself how long to cache names, attributes and data; these options are for"
                        + " filesystems on libfuse's path API (hello)");
            }
        }
    }

    @Command(name = "memfs", mixinStandardHelpOptions = true,
            description = "A writable in-memory filesystem with the semantics of tmpfs.")
    static final class Memfs extends Common implements Callable<Integer> {
        @Parameters(index = "0", arity = "0..1", paramLabel = "MOUNTPOINT", converter = Arguments.NonEmptyPath.class,
                description = "Where to mount (created if missing, and then removed at the end). Default: /tmp/fuse-panama/memfs.")
        void mountpoint(Path p) { mountpoint = p; }

        @Option(names = "--max-size", paramLabel = "SIZE", converter = Arguments.Size.class,
                description = "Capacity, e.g. 512M or 2G (default: half the machine's memory, as tmpfs).")
        Long maxSize;

        @Option(names = "--max-inodes", paramLabel = "N", converter = Arguments.Inodes.class,
                description = "Most files and directories, the root included (default: one per 4 KiB of capacity).")
        Long maxInodes;

        @Override
        public Integer call() throws Exception {
            long bytes = maxSize == null ? MemoryFileSystem.defaultCapacity() : maxSize;
            long inodes = maxInodes == null ? Math.max(1024, bytes / 4096) : maxInodes;
            return serve("memfs", new MemoryFileSystem(bytes, inodes), apply(MemoryFileSystem.mountOptions()), this);
        }
    }

    @Command(name = "hello", mixinStandardHelpOptions = true, description = "One read-only file, /hello.")
    static final class Hello extends Common implements Callable<Integer> {
        @Parameters(index = "0", arity = "0..1", paramLabel = "MOUNTPOINT", converter = Arguments.NonEmptyPath.class,
                description = "Where to mount (created if missing, and then removed at the end). Default: /tmp/fuse-panama/hello.")
        void mountpoint(Path p) { mountpoint = p; }

        @Override
        public Integer call() throws Exception {
            return serve("hello", new HelloFileSystem(), apply(MountOptions.builder().fsName("hello").subtype("hello")), this);
        }
    }

    @Command(name = "mirror", mixinStandardHelpOptions = true,
            description = "A pass-through of SOURCE_DIR on the inode API: one node per source inode, libc calls on the real "
                    + "directory, file data passed through by the kernel where the mount can.")
    static final class Mirror extends Common implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "SOURCE_DIR", converter = Arguments.NonEmptyPath.class, description = "The directory to mirror.")
        Path source;

        @Parameters(index = "1", arity = "0..1", paramLabel = "MOUNTPOINT", converter = Arguments.NonEmptyPath.class,
                description = "Where to mount (created if missing, and then removed at the end). Default: /tmp/fuse-panama/mirror.")
        void mountpoint(Path p) { mountpoint = p; }

        @Option(names = "--cache", paramLabel = "SECONDS", converter = Arguments.Seconds.class,
                description = "Seconds the kernel may trust names and attributes the source watch does not cover (all of them "
                        + "with --no-watch). Default 0: the source may change underneath.")
        double cacheSeconds;

        @Option(names = "--no-watch", description = "Do not watch the source for other programs' changes; the kernel then "
                + "caches nothing beyond --cache. By default the mirror watches it (fanotify, or inotify) and lets the kernel "
                + "keep what the watch covers, telling it of each change within 200 ms.")
        boolean noWatch;

        @Option(names = "--no-passthrough", description = "Serve file data through the mirror even where the kernel could "
                + "read and write the source files itself (kernel passthrough: libfuse 3.17+, root).")
        boolean noPassthrough;

        @Override
        public Integer call() throws Exception {
            if (!Arguments.existing(spec.commandLine(), "SOURCE_DIR", source).isDirectory()) {
                throw new Arguments.Refusal(spec.commandLine(), "SOURCE_DIR " + source + " is not a directory");
            }
            Path target = mountpoint == null ? Path.of("/tmp/fuse-panama", "mirror") : mountpoint;
            Path realSource;
            try {
                realSource = source.toRealPath();
            } catch (IOException e) {
                throw new Arguments.Refusal(spec.commandLine(), "SOURCE_DIR " + source + " cannot be resolved: " + Arguments.reason(e));
            }
            if (target.toAbsolutePath().normalize().startsWith(realSource) || realPath(target).startsWith(realSource)) {
                throw new Arguments.Refusal(spec.commandLine(), "the mountpoint " + target + " is inside the source " + realSource
                        + ": the mirror would contain itself");
            }
            InodeMirror mirror;
            try {
                mirror = InodeMirror.builder(realSource).cacheSeconds(cacheSeconds).passthrough(!noPassthrough).build();
            } catch (IOException | IllegalArgumentException e) {
                throw new Arguments.Refusal(spec.commandLine(), String.valueOf(e.getMessage()));
            }
            try (InodeMirror fs = mirror) {
                MountOptions options = apply(fs.mountOptions()).build();
                checkInodeApi("mirror"); // after apply, which finds the path API's settings
                return serve("mirror", at -> {
                    InodeMount m = Fuse.mount(withSettings(fs), at, options);
                    if (!noWatch) {
                        try {
                            fs.watch(m);
                        } catch (IOException e) {
                            m.close();
                            throw new IOException("cannot watch the source " + realSource + " (--no-watch mounts without): "
                                    + e.getMessage(), e);
                        }
                    }
                    return m;
                }, this);
            }
        }

        /** {@code p} with its links resolved, as far as it exists and can be examined; the rest as given. */
        private static Path realPath(Path p) {
            Path absolute = p.toAbsolutePath().normalize();
            for (Path existing = absolute; existing != null; existing = existing.getParent()) {
                try {
                    return existing.toRealPath().resolve(existing.relativize(absolute));
                } catch (IOException missingOrUnreachable) {
                    // try its parent
                }
            }
            return absolute;
        }
    }

    @Command(name = "zip", mixinStandardHelpOptions = true,
            description = "A zip or jar archive through the JDK's zip filesystem: read-only unless --writable.")
    static final class Zip extends Common implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "ARCHIVE", converter = Arguments.NonEmptyPath.class,
                description = "The zip or jar file (with --writable, made if missing).")
        Path archive;

        @Parameters(index = "1", arity = "0..1", paramLabel = "MOUNTPOINT", converter = Arguments.NonEmptyPath.class,
                description = "Where to mount (created if missing, and then removed at the end). Default: /tmp/fuse-panama/zip.")
        void mountpoint(Path p) { mountpoint = p; }

        @Option(names = "--writable", description = "Allow changes; the JDK writes them into the archive when the mount ends.")
        boolean writable;

        @Override
        public Integer call() throws Exception {
            CommandLine command = spec.commandLine();
            if (!writable || Files.exists(archive, LinkOption.NOFOLLOW_LINKS)) {
                BasicFileAttributes a = Arguments.existing(command, "ARCHIVE", archive);
                if (!a.isRegularFile()) throw new Arguments.Refusal(command, "ARCHIVE " + archive + " is not a file");
            }
            boolean made = writable && !Files.exists(archive, LinkOption.NOFOLLOW_LINKS);
            ZipArchive zip;
            try {
                zip = ZipArchive.open(archive, writable);
            } catch (IOException e) {
                throw new Arguments.Refusal(command, e.getMessage());
            }
            int status = 2;
            try (zip) {
                NioFileSystem fs = NioFileSystem.of(zip.zipfs.getPath("/"));
                status = serve("zip", fs, apply(fs.mountOptions().fsName(archive.getFileName().toString())), this);
                return status;
            } finally {
                if (status != 0 && made) {
                    Files.deleteIfExists(archive); // the empty archive zipfs made for a mount that did not happen
                } else if (writable && status == 0) {
                    LOG.info("zip: changes written to {}", archive);
                }
            }
        }
    }

    /** Mounts, logs where, serves until a signal or an external unmount; 0 on a clean stop. */
    static int serve(String name, FuseFileSystem fs, MountOptions.Builder options, Common common) throws Exception {
        PathOptions path = common.path.build();
        FuseFileSystem served = common.withSettings(fs);
        return serve(name, at -> Fuse.mount(served, at, options.build(), path), common);
    }

    /** As above, for a filesystem on the inode API, which sends its timeouts and open flags with each reply. */
    static int serve(String name, InodeFileSystem fs, MountOptions.Builder options, Common common) throws Exception {
        common.checkInodeApi(name);
        InodeFileSystem served = common.withSettings(fs);
        return serve(name, at -> Fuse.mount(served, at, options.build()), common);
    }

    interface Mounter {
        Mount mount(Path at) throws IOException;
    }

    static int serve(String name, Mounter mounter, Common common) throws Exception {
        if (common.debug) {
            ((Logger) LoggerFactory.getLogger("dev.fusepanama.libfuse")).setLevel(Level.DEBUG);
        }
        Path mountpoint = (common.mountpoint == null ? Path.of("/tmp/fuse-panama", name) : common.mountpoint).toAbsolutePath();
        List<Path> created;
        try {
            created = createMissing(mountpoint);
        } catch (IOException e) {
            throw new Arguments.Refusal(common.spec.commandLine(), "cannot create the mountpoint " + mountpoint + ": "
                    + whyNotCreated(mountpoint, e));
        }
        if (!created.isEmpty()) {
            LOG.info("created the mountpoint {}; it is removed again at the end", mountpoint);
        }
        try {
            Mount mount;
            try {
                mount = mounter.mount(mountpoint);
            } catch (MountException e) {
                if (e.reason() != MountException.Reason.LIBFUSE_UNAVAILABLE || !installFuse3()) {
                    LOG.error("{}", e.getMessage());
                    return 2;
                }
                try {
                    mount = mounter.mount(mountpoint);
                } catch (MountException again) {
                    LOG.error("{}", again.getMessage());
                    return 2;
                }
            }
            String how = mount.describe();
            int open = how.indexOf('(');
            String got = open < 0 ? "(libfuse " + Fuse.libfuseVersion() + ")" : how.substring(open);
            return Foreground.serve(mount, LOG, () -> LOG.info("{} mounted at {} {}; stop with Ctrl-C or: fusermount3 -u {}",
                    name, mountpoint, got, mountpoint));
        } finally {
            removeCreated(created);
        }
    }

    /**
     * Set by ./fuse-panama when it runs as root where apt-get is: the launcher may install
     * libfuse3 itself when the mount finds none (the core's readiness check is the one that looks).
     */
    static final String INSTALL_WITH = "FUSE_PANAMA_INSTALL_WITH";

    /** Installs fuse3 with the command {@link #INSTALL_WITH} names (apt-get), if the launcher said so; true if it did. */
    static boolean installFuse3() throws IOException, InterruptedException {
        String aptGet = System.getenv(INSTALL_WITH);
        if (aptGet == null || aptGet.isBlank() || inLinkerCache()) return false; // present, but too old or of another architecture
        LOG.warn("libfuse3 is missing; installing fuse3 with {}", aptGet);
        if (run(aptGet, "install", "-y", "-qq", "fuse3") == 0) return true;
        return run(aptGet, "update", "-qq") == 0 && run(aptGet, "install", "-y", "-qq", "fuse3") == 0;
    }

    /** Whether the linker cache lists libfuse3.so.3 or libfuse3.so.4 (ldconfig is in sbin, which a PATH may lack). */
    private static boolean inLinkerCache() throws IOException, InterruptedException {
        for (String ldconfig : List.of("/sbin/ldconfig", "/usr/sbin/ldconfig")) {
            if (!Files.isExecutable(Path.of(ldconfig))) continue;
            Process p = new ProcessBuilder(ldconfig, "-p").redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String cache = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            p.waitFor();
            return cache.contains("libfuse3.so.3 ") || cache.contains("libfuse3.so.4 ");
        }
        return false;
    }

    private static int run(String... command) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.INHERIT).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        pb.environment().put("DEBIAN_FRONTEND", "noninteractive");
        return pb.start().waitFor();
    }

    /**
     * Creates {@code dir} and its missing parents; returns those it created, outermost first.
     * If one cannot be made, those made are removed again and the reason thrown.
     */
    static List<Path> createMissing(Path dir) throws IOException {
        List<Path> missing = new ArrayList<>();
        for (Path p = dir.toAbsolutePath(); p != null && Files.notExists(p, LinkOption.NOFOLLOW_LINKS); p = p.getParent()) {
            missing.addFirst(p);
        }
        List<Path> created = new ArrayList<>();
        try {
            for (Path p : missing) {
                try {
                    Files.createDirectory(p);
                    created.add(p);
                } catch (FileAlreadyExistsException raced) {
                    // made by someone else meanwhile: theirs to keep
                }
            }
        } catch (IOException e) {
            removeCreated(created);
            throw e;
        }
        return created;
    }

    /** Why {@link #createMissing} could not make {@code dir}: a file on the way where a directory must be, or {@code e}'s reason. */
    private static String whyNotCreated(Path dir, IOException e) {
        for (Path p = dir.getParent(); p != null; p = p.getParent()) {
            if (Files.exists(p)) return Files.isDirectory(p) ? Arguments.reason(e, dir) : p + " is not a directory";
        }
        return Arguments.reason(e, dir);
    }

    /** Removes what {@link #createMissing} made, innermost first, as far as each is still empty. */
    static void removeCreated(List<Path> created) {
        for (Path p : created.reversed()) {
            try {
                Files.deleteIfExists(p);
            } catch (IOException notEmptyOrBusy) {
                LOG.info("left the mountpoint directory {} in place: {}", p, notEmptyOrBusy.toString());
                return;
            }
        }
    }

    /** The command line of {@code fuse-panama}, refusing what it cannot take in one line ({@link Arguments#refused}). */
    static CommandLine commandLine() {
        return new CommandLine(new Main()).setParameterExceptionHandler(Arguments::refused);
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }
}
