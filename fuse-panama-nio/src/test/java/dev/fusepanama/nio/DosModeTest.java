package dev.fusepanama.nio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import dev.fusepanama.Errno;
import dev.fusepanama.ErrnoException;
import dev.fusepanama.Posix;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The dos view's modes as vfat shows and sets them (see {@link DosMode}), without a mount. */
class DosModeTest {
    @Test
    void readonlyShowsAsMissingWriteBits() {
        assertEquals(0644, DosMode.bits(false, false));
        assertEquals(0444, DosMode.bits(false, true));
        assertEquals(0755, DosMode.bits(true, false));
        assertEquals(0555, DosMode.bits(true, true));
    }

    @Test
    void noWriteBitSetsReadonlyAndTheOwnersClearsIt() throws ErrnoException {
        assertTrue(DosMode.readOnlyAfterChmod(false, 0444), "chmod a-w");
        assertFalse(DosMode.readOnlyAfterChmod(false, 0644), "chmod u+w");
        assertTrue(DosMode.readOnlyAfterChmod(true, 0555));
        assertFalse(DosMode.readOnlyAfterChmod(true, 0755));
    }

    @Test
    void bitsTheMasksWithholdAreDroppedAsVfatDropsThem() throws ErrnoException {
        assertFalse(DosMode.readOnlyAfterChmod(false, 0777), "a file's x bits and g/o w: fmask 0133");
        assertFalse(DosMode.readOnlyAfterChmod(false, 0755));
        assertFalse(DosMode.readOnlyAfterChmod(false, 0664));
        assertTrue(DosMode.readOnlyAfterChmod(false, 0464), "chmod g+w of a read-only file leaves it read-only");
        assertFalse(DosMode.readOnlyAfterChmod(true, 0777), "a directory's g/o w: dmask 0022");
        assertTrue(DosMode.readOnlyAfterChmod(true, 0575));
    }

    @Test
    void fewerReadOrExecuteBitsAndSetIdBitsAreEperm() {
        for (int mode : new int[] {0600, 0400, 0640, 0000, 04644, 02644, 01644}) {
            ErrnoException e = assertThrows(ErrnoException.class, () -> DosMode.readOnlyAfterChmod(false, mode),
                    Integer.toOctalString(mode));
            assertEquals(Errno.EPERM, e.errno(), Integer.toOctalString(mode));
        }
        for (int mode : new int[] {0700, 0750, 0644, 01777}) {
            ErrnoException e = assertThrows(ErrnoException.class, () -> DosMode.readOnlyAfterChmod(true, mode),
                    "directory " + Integer.toOctalString(mode));
            assertEquals(Errno.EPERM, e.errno());
        }
    }

    @Test
    void aProviderWithOnlyTheDosViewIsReadThroughIt() throws Exception {
        try (FileSystem jimfs = Jimfs.newFileSystem(Configuration.unix().toBuilder().setAttributeViews("basic", "dos").build())) {
            assertEquals(Attributes.View.DOS, Attributes.viewOf(jimfs));
            Path dir = Files.createDirectory(jimfs.getPath("/dir"));
            Path file = Files.writeString(jimfs.getPath("/file"), "x");
            assertEquals(Posix.S_IFREG | 0644, Attributes.read(file, Attributes.View.DOS, false, 1000, 1000).mode());
            assertEquals(Posix.S_IFDIR | 0755, Attributes.read(dir, Attributes.View.DOS, false, 1000, 1000).mode());
            Files.setAttribute(file, "dos:readonly", true);
            Files.setAttribute(dir, "dos:readonly", true);
            Attributes a = Attributes.read(file, Attributes.View.DOS, false, 1000, 1001);
            assertEquals(Posix.S_IFREG | 0444, a.mode());
            assertEquals(1000, a.uid(), "the mounting user's, as on a FAT mount");
            assertEquals(1001, a.gid());
            assertEquals(Posix.S_IFDIR | 0555, Attributes.read(dir, Attributes.View.DOS, false, 1000, 1000).mode());
        }
    }
}
