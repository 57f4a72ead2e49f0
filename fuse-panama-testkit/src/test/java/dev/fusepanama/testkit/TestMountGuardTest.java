package dev.fusepanama.testkit;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** A run that leaves out the tests that mount refuses every mount, so a test that lacks the tag fails. */
class TestMountGuardTest {
    @Test
    void aRunWithoutMountTestsRefusesToMountAndSaysWhatToAnnotate() throws Exception {
        String before = System.getProperty(TestMount.EXCLUDED_GROUPS_PROPERTY);
        try {
            System.setProperty(TestMount.EXCLUDED_GROUPS_PROPERTY, "pjdfstest");
            assertDoesNotThrow(TestMount::checkMountsAllowed);
            System.setProperty(TestMount.EXCLUDED_GROUPS_PROPERTY, "pjdfstest, mount");
            IllegalStateException refused = assertThrows(IllegalStateException.class,
                    () -> TestMount.mountWith(dir -> { throw new AssertionError("mounted at " + dir); }));
            assertTrue(refused.getMessage().contains("@" + MountTest.class.getName()), refused.getMessage());
        } finally {
            if (before == null) System.clearProperty(TestMount.EXCLUDED_GROUPS_PROPERTY);
            else System.setProperty(TestMount.EXCLUDED_GROUPS_PROPERTY, before);
        }
    }
}
