package dev.fusepanama.throughmount;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.fusepanama.FileInfo;
import dev.fusepanama.FuseContext;
import dev.fusepanama.MountOptions;
import dev.fusepanama.Stat;
import dev.fusepanama.inode.EntryReply;
import dev.fusepanama.inode.Name;
import dev.fusepanama.inode.Request;
import dev.fusepanama.libc.Libc;
import dev.fusepanama.testing.FlatInodeFileSystem;
import dev.fusepanama.testing.ScratchFileSystem;
import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.TestMount;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Both APIs tell the caller the same way ({@link FuseContext}, which the inode API's
 * {@link Request} extends): a process with its own user, group and supplementary groups,
 * started by {@code setpriv}, looks a name up, and the filesystem sees exactly those.
 */
@MountTest
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CallerThroughMountTest {
    private static final int[] GROUPS = {4321, 8765};

    /** {@code stat PATH} as user 1234, group 1235, supplementary groups {@link #GROUPS}. */
    private static void statAsAnotherCaller(String path) throws Exception {
        Process p = new ProcessBuilder(List.of("setpriv", "--reuid=1234", "--regid=1235", "--groups=4321,8765", "stat", path))
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        p.waitFor(20, TimeUnit.SECONDS);
    }

    private static int[] caller(FuseContext c) {
        int[] groups = c.groups().clone();
        Arrays.sort(groups);
        int[] all = Arrays.copyOf(new int[] {c.uid(), c.gid()}, 2 + groups.length);
        System.arraycopy(groups, 0, all, 2, groups.length);
        return all;
    }

    private static final int[] EXPECTED = {1234, 1235, 4321, 8765};

    @Test
    void thePathApiSeesTheCallersUserGroupAndSupplementaryGroups() throws Exception {
        Assumptions.assumeTrue(Libc.geteuid() == 0, "setpriv takes root");
        AtomicReference<int[]> seen = new AtomicReference<>();
        ScratchFileSystem fs = new ScratchFileSystem() {
            @Override
            public synchronized int getattr(String path, Stat st, FileInfo fi) {
                if (path.equals("/probe")) seen.set(caller(FuseContext.current()));
                return super.getattr(path, st, fi);
            }
        };
        try (TestMount m = TestMount.mount(fs, MountOptions.builder().allowOther(true).build())) {
            statAsAnotherCaller(m.path("probe").toString());
            assertArrayEquals(EXPECTED, seen.get());
        }
    }

    @Test
    void theInodeApiSeesTheSameThroughItsRequest() throws Exception {
        Assumptions.assumeTrue(Libc.geteuid() == 0, "setpriv takes root");
        AtomicReference<int[]> seen = new AtomicReference<>();
        FlatInodeFileSystem fs = new FlatInodeFileSystem() {
            @Override
            public void lookup(Request request, long parent, Name name, EntryReply reply) throws IOException {
                if (name.toString().equals("probe")) seen.set(caller(request));
                super.lookup(request, parent, name, reply);
            }
        };
        try (TestMount m = TestMount.mount(fs, MountOptions.builder().allowOther(true).build())) {
            statAsAnotherCaller(m.path("probe").toString());
            assertArrayEquals(EXPECTED, seen.get());
        }
    }
}
