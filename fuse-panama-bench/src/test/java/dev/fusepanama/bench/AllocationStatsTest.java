package dev.fusepanama.bench;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fusepanama.inode.AttrReply;
import dev.fusepanama.inode.InodeFileSystem;
import dev.fusepanama.inode.Request;
import dev.fusepanama.inode.Timeouts;
import org.junit.jupiter.api.Test;

/** A counting wrapper must leave the operations the binding registers as they are. */
class AllocationStatsTest {
    @Test
    void theWrappersImplementExactlyTheBenchFilesystemsOperations() {
        assertDoesNotThrow(() -> new CountingFileSystem(new PanamaBenchFs(false), new AllocationStats()));
        assertDoesNotThrow(() -> new CountingInodeFileSystem(new PanamaInodeBenchFs(), new AllocationStats()));
    }

    @Test
    void aWrapperOfAFilesystemWithOtherOperationsIsRefusedNamingThem() {
        InodeFileSystem getattrOnly = new InodeFileSystem() {
            @Override
            public void getattr(Request request, long ino, long fh, AttrReply reply) {
                reply.send(Timeouts.NONE);
            }
        };
        var e = assertThrows(IllegalArgumentException.class, () -> new CountingInodeFileSystem(getattrOnly, new AllocationStats()));
        assertTrue(e.getMessage().contains("lookup") && e.getMessage().contains("readdirplus") && !e.getMessage().contains("getattr"),
                e.getMessage());
    }
}
