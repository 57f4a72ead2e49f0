package dev.fusepanama.internal.bind;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fusepanama.ConnectionInfo;
import dev.fusepanama.DirFiller;
import dev.fusepanama.Errno;
import dev.fusepanama.Posix;
import dev.fusepanama.Timespec;
import dev.fusepanama.libc.Arch;
import dev.fusepanama.libc.FileEvents;
import dev.fusepanama.libc.Libc;
import dev.fusepanama.libc.ThreadContext;
import dev.fusepanama.libc.structs.stat;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hand-written bindings agree with the C compiler: every mapped struct's size, every field's
 * offset, every bit field's position, and every constant the API exposes, compiled against the
 * headers of the libfuse release that is loaded (the system's, or the one the version matrix
 * points {@code FUSE_PANAMA_LIBFUSE} and {@code FUSE_PANAMA_LIBFUSE_INCLUDE} at), with the
 * layouts the binding chose for that release.
 */
class LayoutTest {
    @TempDir
    static Path work;

    static List<String> probe;
    static LibFuse lib;
    static Map<String, StructLayout> layouts;

    static Map<String, Integer> bits() {
        return lib.layouts.fileInfoBits().byName();
    }

    @BeforeAll
    static void runProbe() throws Exception {
        lib = LibFuse.get();
        layouts = lib.layouts.all();
        probe = NativeProbe.run(NativeProbe.nativeDir().resolve("layout_probe.c"), work,
                "FUSE_PANAMA_PATCH=" + lib.version.patch());
    }

    @Test
    void theProbeIsCompiledForTheArchitectureThisJvmRunsOn() {
        assertEquals("arch " + Arch.current().displayName, probe.get(0),
                "the layout probe was compiled for another architecture than this JVM's (os.arch "
                        + System.getProperty("os.arch") + "); name that architecture's C compiler in "
                        + NativeProbe.CC_ENVIRONMENT + " and the command that runs its programs in " + NativeProbe.RUN_ENVIRONMENT);
    }

    @Test
    void theHeadersAreThoseOfTheLoadedRelease() {
        String version = probe.stream().filter(l -> l.startsWith("version ")).findFirst().orElse("version ? ?");
        assertEquals("version " + lib.version.major() + " " + lib.version.minor(), version,
                "the probe was compiled against other headers than those of the loaded libfuse " + lib.packageVersion
                        + " (" + lib.name + "); set FUSE_PANAMA_LIBFUSE_INCLUDE to its include directory");
    }

    @Test
    void everyStructSizeFieldOffsetAndBitMatchesTheCCompiler() throws Exception {
        List<String> problems = LayoutCheck.compare(layouts, bits(), probe);
        assertEquals(List.of(), problems, "libfuse " + lib.packageVersion);
        assertTrue(probe.size() > 100, "the probe checks every mapped field: " + probe.size() + " lines");
        for (String struct : layouts.keySet()) {
            assertTrue(probe.contains("size " + struct + " " + layouts.get(struct).byteSize()), "probe covers " + struct);
        }
    }

    @Test
    void theConfigLayoutOfAnotherReleaseIsCaught() {
        // The cause of the unmount crash on 3.17+: 3.14.0's struct fuse_config offsets used with a
        // 3.17 library put nullpath_ok where 3.17 keeps the modules pointer, which fuse_destroy frees.
        Map<String, StructLayout> other = new LinkedHashMap<>(layouts);
        // 3.10 and 3.17+ keep nullpath_ok at 96, 3.11 to 3.16 at 104: swap one family for the other.
        StructLayout loaded = lib.layouts.fuseConfig();
        boolean shifted = loaded == fuse_config.LAYOUT_311 || loaded == fuse_config.LAYOUT_3141;
        other.put("fuse_config", shifted ? fuse_config.LAYOUT_317 : fuse_config.LAYOUT_311);
        List<String> problems = LayoutCheck.compare(other, bits(), probe);
        assertTrue(problems.stream().anyMatch(p -> p.startsWith("offsetof(fuse_config, nullpath_ok)")), problems.toString());
    }

    @Test
    void aDeliberatelyWrongOffsetIsCaught() throws Exception {
        // st_size swapped with the 8-byte member before it (st_rdev on x86-64, __pad1 in asm-generic's
        // layout), so one long earlier than it really is: the slip that would corrupt file sizes.
        List<MemoryLayout> members = new ArrayList<>(stat.LAYOUT.memberLayouts());
        int size = members.indexOf(members.stream().filter(m -> m.name().orElse("").equals("st_size")).findFirst().orElseThrow());
        MemoryLayout before = members.get(size - 1);
        assertEquals(8, before.byteSize(), before.toString());
        members.set(size - 1, members.get(size).withName("st_size"));
        members.set(size, before);
        StructLayout wrong = MemoryLayout.structLayout(members.toArray(MemoryLayout[]::new)).withName("stat");
        Map<String, StructLayout> wrongLayouts = new LinkedHashMap<>(layouts);
        wrongLayouts.put("stat", wrong);
        List<String> problems = LayoutCheck.compare(wrongLayouts, bits(), probe);
        assertTrue(problems.stream().anyMatch(p -> p.startsWith("offsetof(stat, st_size)")), problems.toString());

        Map<String, Integer> wrongBits = new TreeMap<>(bits());
        wrongBits.put("direct_io", 2);
        assertTrue(LayoutCheck.compare(layouts, wrongBits, probe).stream().anyMatch(p -> p.contains("direct_io")));
    }

    @Test
    void errnoHasEveryNameTheHeadersDefineWithTheirValues() throws Exception {
        List<String> names = NativeProbe.exec(List.of("sh", "-c",
                "echo '#include <errno.h>' | " + String.join(" ", NativeProbe.cc())
                        + " -dM -E - | awk '$1==\"#define\" && $2 ~ /^E[A-Z0-9]+$/ {print $2}' | sort -u"));
        assertTrue(names.size() > 120, "errno.h defines " + names.size() + " names");
        Map<String, Long> java = new TreeMap<>();
        for (String n : names) {
            try {
                java.put(n, (long) Errno.class.getField(n).getInt(null));
            } catch (NoSuchFieldException e) {
                java.put(n, null);
            }
        }
        assertConstants("errno.h", List.of("errno.h"), java);
        assertEquals("ENOENT", Errno.name(-Errno.ENOENT));
        assertEquals("EAGAIN", Errno.name(Errno.EWOULDBLOCK));
    }

    @Test
    void posixAndCapabilityConstantsMatchTheHeaders() throws Exception {
        Map<String, Long> java = new TreeMap<>();
        for (Field f : Posix.class.getFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.getType() != boolean.class) {
                java.put(f.getName(), ((Number) f.get(null)).longValue());
            }
        }
        for (Field f : ConnectionInfo.class.getFields()) {
            java.put("FUSE_" + f.getName(), f.getLong(null));
        }
        java.put("FUSE_READDIR_PLUS", (long) DirFiller.READDIR_PLUS);
        java.put("UTIME_NOW", Timespec.UTIME_NOW);
        java.put("UTIME_OMIT", Timespec.UTIME_OMIT);
        java.put("FUSE_BUF_IS_FD", (long) fuse_buf.FUSE_BUF_IS_FD);
        java.put("FUSE_BUF_FD_SEEK", (long) fuse_buf.FUSE_BUF_FD_SEEK);
        java.put("FUSE_BUF_FD_RETRY", (long) fuse_buf.FUSE_BUF_FD_RETRY);
        assertConstants("posix", List.of("fuse_panama.h", "poll.h", "unistd.h"), java);
    }

    @Test
    void libcConstantsMatchTheHeaders() throws Exception {
        Map<String, Long> java = new TreeMap<>();
        for (String name : List.of("AT_FDCWD", "AT_SYMLINK_NOFOLLOW", "AT_REMOVEDIR", "AT_EMPTY_PATH", "AT_RECURSIVE",
                "RESOLVE_NO_MAGICLINKS", "RESOLVE_NO_SYMLINKS", "RESOLVE_BENEATH", "CLONE_FS", "CLONE_NEWNS", "MNT_DETACH", "MS_REC", "MS_PRIVATE", "MAX_HANDLE_SZ",
                "RLIMIT_NOFILE", "RLIM_INFINITY")) {
            Class<?> owner = name.startsWith("CLONE_") || name.startsWith("MNT_") || name.startsWith("MS_") ? ThreadContext.class : Libc.class;
            java.put(name, ((Number) owner.getField(name).get(null)).longValue());
        }
        java.put("sizeof(struct open_how)", Libc.OPEN_HOW_SIZE);
        java.put("sizeof(struct stat)", (long) Arch.constants().statSize);
        java.put("sizeof(struct statx)", Libc.STATX_SIZE);
        java.put("sizeof(struct file_handle) + MAX_HANDLE_SZ", Libc.FILE_HANDLE_SIZE);
        java.put("sizeof(struct rlimit)", Libc.RLIMIT_SIZE);
        assertConstants("libc", List.of("fuse_panama.h", "sched.h", "linux/openat2.h", "sys/stat.h", "fcntl.h", "sys/resource.h"), java);
    }

    @Test
    void changeNotificationConstantsMatchTheHeaders() throws Exception {
        Map<String, Long> java = new TreeMap<>();
        for (Field f : FileEvents.class.getFields()) {
            String n = f.getName();
            if (Modifier.isStatic(f.getModifiers()) && (n.startsWith("IN_") || n.startsWith("FAN_") || n.startsWith("EFD_"))) {
                java.put(n, ((Number) f.get(null)).longValue());
            }
        }
        assertTrue(java.keySet().containsAll(List.of("IN_CREATE", "FAN_REPORT_FID", "FAN_MARK_FILESYSTEM", "FAN_EVENT_INFO_TYPE_DFID_NAME")),
                java.toString());
        java.put("FANOTIFY_METADATA_VERSION", (long) FileEvents.FANOTIFY_METADATA_VERSION);
        java.put("sizeof(struct inotify_event)", FileEvents.INOTIFY_EVENT_SIZE);
        java.put("sizeof(struct fanotify_event_metadata)", FileEvents.FANOTIFY_METADATA_SIZE);
        java.put("offsetof(struct fanotify_event_info_fid, handle)", FileEvents.FANOTIFY_INFO_FID_HANDLE);
        assertConstants("notify", List.of("stddef.h", "sys/inotify.h", "sys/fanotify.h", "sys/eventfd.h"), java);
    }

    @Test
    void systemCallNumbersMatchTheHeaders() throws Exception {
        Map<String, Long> java = new TreeMap<>();
        for (Field f : Libc.class.getDeclaredFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.getName().startsWith("SYS_")) {
                f.setAccessible(true);
                java.put("SYS_" + f.getName().substring(4).toLowerCase(), f.getLong(null));
            }
        }
        assertTrue(java.keySet().containsAll(List.of("SYS_newfstatat", "SYS_fstat", "SYS_mknodat", "SYS_openat2")), java.toString());
        assertConstants("syscalls", List.of("sys/syscall.h"), java);
    }

    /** Constants of newer releases, checked where the headers have them and required from that release on. */
    private static final Map<String, int[]> INTRODUCED = Map.of(
            "FUSE_CAP_HANDLE_KILLPRIV_V2", new int[] {3, 17},
            "FUSE_CAP_PASSTHROUGH", new int[] {3, 17},
            "FUSE_CAP_OVER_IO_URING", new int[] {3, 18});

    /**
     * System calls newer than the kernel headers of Debian 12 (Linux 6.1), whose numbers are
     * checked where the headers have them: one table for every architecture from 424 on.
     */
    private static final Set<String> NEWER_THAN_HEADERS = Set.of(
            "SYS_fchmodat2");

    /** Compiles a program printing each C macro and compares with the Java value (null: missing in Java). */
    private static void assertConstants(String label, List<String> includes, Map<String, Long> java) throws Exception {
        StringBuilder c = new StringBuilder();
        for (String inc : includes) c.append("#include <").append(inc).append(">\n");
        c.append("#include <stdio.h>\nint main(void) {\n");
        for (String name : java.keySet()) {
            boolean newer = INTRODUCED.containsKey(name) || NEWER_THAN_HEADERS.contains(name);
            if (newer) c.append("#ifdef ").append(name).append('\n');
            c.append("  printf(\"%s %lld\\n\", \"").append(name).append("\", (long long) (").append(name).append("));\n");
            if (newer) c.append("#endif\n");
        }
        c.append("  return 0;\n}\n");
        Path source = work.resolve("constants-" + label.replace('.', '_') + ".c");
        Files.writeString(source, c);
        List<String> problems = new ArrayList<>();
        List<String> printed = new ArrayList<>();
        for (String line : NativeProbe.run(source, work)) {
            printed.add(line.substring(0, line.lastIndexOf(' ')));
            int space = line.lastIndexOf(' ');
            String name = line.substring(0, space);
            Long j = java.get(name);
            long v = Long.parseLong(line.substring(space + 1));
            if (j == null) problems.add(name + " is missing in Java (C: " + v + ")");
            else if (j != v) problems.add(name + ": C " + v + ", Java " + j);
        }
        LibFuseVersion loaded = LibFuse.get().version;
        for (Map.Entry<String, int[]> e : INTRODUCED.entrySet()) {
            int[] r = e.getValue();
            if (java.containsKey(e.getKey()) && loaded.atLeast(r[0], r[1], 0) && !printed.contains(e.getKey())) {
                problems.add(e.getKey() + " is missing in the headers of libfuse " + loaded + ", which should have it");
            }
        }
        assertEquals(List.of(), problems, label);
    }
}
