package dev.fusepanama.internal.mount;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fusepanama.MountException;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A mountpoint that cannot be examined is explained: the errno stat(2) met, the path on the way
 * where it met it, and what to do. Without a mount: the check happens before anything is mounted.
 */
class PreflightTest {
    @TempDir
    Path tmp;

    private String refusal(Path mountpoint) {
        MountException e = assertThrows(MountException.class, () -> Preflight.checkMountpoint(mountpoint, MountTable.parse(List.of())));
        assertFalse(e.getMessage().contains("null"), e.getMessage());
        assertTrue(e.getMessage().startsWith("mountpoint " + mountpoint + " cannot be examined: "), e.getMessage());
        return e.getMessage();
    }

    @Test
    void aSymbolicLinkLoopOnTheWayIsNamed() throws Exception {
        Path loop = Files.createSymbolicLink(tmp.resolve("loop"), Path.of("loop"));
        String message = refusal(loop.resolve("mnt"));
        assertTrue(message.contains("ELOOP"), message);
        assertTrue(message.contains("at " + loop + ":"), "the link itself, not the path under it: " + message);
    }

    @Test
    void aNameLongerThanLinuxTakesIsNamed() {
        Path tooLong = tmp.resolve("n".repeat(256));
        String message = refusal(tooLong.resolve("mnt"));
        assertTrue(message.contains("ENAMETOOLONG"), message);
        assertTrue(message.contains("255 bytes"), "says the limit: " + message);
    }

    @Test
    void aFileOnTheWayIsNamed() throws Exception {
        Path file = Files.writeString(tmp.resolve("file"), "");
        String message = refusal(file.resolve("mnt"));
        assertTrue(message.contains("ENOTDIR"), message);
        assertTrue(message.contains(file + " is not a directory"), message);
    }

    /**
     * A directory on the way that this user may not search (mode 000), seen as another user would:
     * this thread's filesystem uid set to nobody's, which also drops root's override of file modes
     * (capabilities(7): a change of fsuid from 0 clears CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH).
     */
    @Test
    void aDirectoryThisUserMayNotSearchIsNamedWithHowToFixIt() throws Throwable {
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path locked = Files.createDirectory(tmp.resolve("locked"));
        Files.createDirectory(locked.resolve("inner"));
        Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("---------"));
        MethodHandle setfsuid = Linker.nativeLinker().downcallHandle(
                Linker.nativeLinker().defaultLookup().find("setfsuid").orElseThrow(), FunctionDescriptor.of(JAVA_INT, JAVA_INT));
        int before = (int) setfsuid.invokeExact(65534);
        String message;
        try {
            message = refusal(locked.resolve("inner"));
        } finally {
            int ignored = (int) setfsuid.invokeExact(before);
            Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("rwx------"));
        }
        assertTrue(message.contains("permission denied (EACCES)"), message);
        assertTrue(message.contains("may not search " + locked + " (mode 000"), message);
        assertTrue(message.contains("chmod"), "how to fix it: " + message);
    }
}
