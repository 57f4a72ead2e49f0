package dev.fusepanama.examples.inode;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.fusepanama.Errno;
import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.TestMount;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The file's size is read and set through ioctl(2); reads, writes and stat agree with it. */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
@MountTest
class IoctlSizeTest {
    @Test
    void getSizeAndSetSizeWorkThroughTheIoctlSystemCall() throws Exception {
        try (TestMount m = TestMount.mount(new IoctlSize())) {
            Path fioc = m.path("fioc");
            assertEquals("hello world", HelloInodeTest.sh("printf 'hello world' > fioc; cat fioc", m.root()));
            assertEquals(new SizeIoctl.Result(0, 11), SizeIoctl.call(fioc, IoctlSize.FIOC_GET_SIZE, 0));

            assertEquals(0, SizeIoctl.call(fioc, IoctlSize.FIOC_SET_SIZE, 5).rc());
            assertEquals("hello", Files.readString(fioc));
            assertEquals(5, Files.size(fioc), "stat asks again: the new size");
            assertEquals(new SizeIoctl.Result(0, 5), SizeIoctl.call(fioc, IoctlSize.FIOC_GET_SIZE, 0));

            assertEquals(0, SizeIoctl.call(fioc, IoctlSize.FIOC_SET_SIZE, 8).rc());
            assertEquals("hello\0\0\0", Files.readString(fioc), "grown with zero bytes");
        }
    }

    @Test
    void otherCommandsAndBadSizesAreRefused() throws Exception {
        try (TestMount m = TestMount.mount(new IoctlSize())) {
            Path fioc = m.path("fioc");
            assertEquals(-Errno.ENOTTY, SizeIoctl.call(fioc, IoctlSize.FIOC_GET_SIZE + 2, 0).rc(), "a command it does not know");
            assertEquals(-Errno.EINVAL, SizeIoctl.call(fioc, IoctlSize.FIOC_SET_SIZE, 1L << 40).rc(), "a size past its limit");
            assertEquals(0, Files.size(fioc));
        }
    }
}
