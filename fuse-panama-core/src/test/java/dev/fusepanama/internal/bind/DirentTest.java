package dev.fusepanama.internal.bind;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.fusepanama.Posix;
import dev.fusepanama.libc.structs.stat;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

/** The readdir entries packed in Java are, byte for byte, the ones libfuse's fuse_add_direntry packs. */
class DirentTest {

    @Test
    void everyNameLengthAndTypePacksAsLibfuseDoes() throws Throwable {
        LibFuseLowLevel ll = LibFuse.get().lowLevel;
        int[] types = {Posix.S_IFREG, Posix.S_IFDIR, Posix.S_IFLNK, 0};
        try (Arena a = Arena.ofConfined()) {
            MemorySegment theirs = a.allocate(512, 8);
            MemorySegment ours = a.allocate(512, 8);
            MemorySegment name = a.allocate(300);
            MemorySegment st = a.allocate(stat.LAYOUT);
            for (int length = 1; length <= 255; length++) {
                byte[] bytes = new byte[length];
                for (int i = 0; i < length; i++) bytes[i] = (byte) ('a' + (i * 7 + length) % 26);
                int mode = types[length % types.length] | 0644;
                long ino = 0x1234_5678_9abcL * length;
                long off = length * 31L + 2;
                theirs.fill((byte) 0x5a);
                ours.fill((byte) 0x5a);
                MemorySegment.copy(bytes, 0, name, ValueLayout.JAVA_BYTE, 0, length);
                name.set(ValueLayout.JAVA_BYTE, length, (byte) 0);
                st.fill((byte) 0);
                stat.st_ino(st.address(), ino);
                stat.st_mode(st.address(), mode);
                long n = (long) ll.addDirentry.invokeExact(0L, theirs.address(), 512L, name.address(), st.address(), off);
                assertEquals(n, fuse_dirent.size(length), "size of a " + length + "-byte name");
                fuse_dirent.put(ours.address(), ino, off, bytes, mode);
                assertArrayEquals(theirs.asSlice(0, n + 8).toArray(ValueLayout.JAVA_BYTE),
                        ours.asSlice(0, n + 8).toArray(ValueLayout.JAVA_BYTE), "a " + length + "-byte name, and nothing after it");
            }
        }
    }
}
