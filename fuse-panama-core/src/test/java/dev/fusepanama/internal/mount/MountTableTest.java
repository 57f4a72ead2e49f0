package dev.fusepanama.internal.mount;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class MountTableTest {
    @Test
    void parsesMountinfoIncludingEscapedNamesAndOptionalFields() {
        MountTable t = MountTable.parse(List.of(
                "22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw",
                "97 22 0:52 / /tmp/with\\040space rw,nosuid,nodev,relatime shared:50 master:3 - fuse.fuse-panama fuse-panama rw,user_id=0,group_id=0",
                "malformed line"));
        MountTable.Entry e = t.find(Path.of("/tmp/with space")).orElseThrow();
        assertEquals("fuse.fuse-panama", e.type());
        assertEquals("fuse-panama", e.source());
        assertEquals("0:52", e.device());
        assertTrue(t.find(Path.of("/tmp")).isEmpty());
    }

    @Test
    void deviceProblemsSayHowToFixThem() {
        assertTrue(Preflight.deviceProblem(false, false, true, true).contains("modprobe fuse"));
        assertTrue(Preflight.deviceProblem(true, false, true, true).contains("no permission to open /dev/fuse"));
        assertTrue(Preflight.deviceProblem(true, false, false, false).contains("fusermount3"));
        assertNull(Preflight.deviceProblem(true, true, true, false));
        assertNull(Preflight.deviceProblem(true, false, false, true), "non-root mounts through fusermount3");
    }
}
