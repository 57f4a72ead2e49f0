package dev.fusepanama.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How pjdfstest 0.2.2's output is read against the known failures: its result lines as main.rs prints them, padded. */
class PjdfstestSuiteTest {
    private static final List<String> RUN = List.of(
            "chmod::permission_bits                                                    ok",
            "rename::exdev_target                                                     FAILED",
            "\tassertion `left == right` failed",
            "  left: ENOENT",
            " right: EXDEV",
            "link::link_count_max                                                    skipped",
            "\tCannot get value for LINK_MAX: filesystem limit is unknown",
            "unlink::open_file_not_freed                                              FAILED",
            "\tassertion failed",
            "mkfifo::fifo                                                             FAILED",
            "open::fifo                                                               FAILED",
            "",
            "Summary: 4 failed, 1 skipped, 1 passed, 0 expected failures, 6 total");

    @Test
    void aFailureOutsideTheListIsReportedWithEverythingPrintedAboutIt() {
        List<String> problems = PjdfstestSuite.problems(RUN, Map.of(
                "unlink::open_file_not_freed", "path API", "*::fifo", "no fifos"));
        assertEquals(List.of(
                "rename::exdev_target FAILED\n    assertion `left == right` failed\n    left: ENOENT\n    right: EXDEV"),
                problems);
    }

    @Test
    void aKnownFailureThatPassedOrDidNotRunIsReported() {
        List<String> problems = PjdfstestSuite.problems(RUN.subList(0, 1),
                Map.of("mkdir::enametoolong_path", "why", "chmod::permission_bits", "was broken"));
        assertEquals(List.of("chmod::permission_bits is a known failure (was broken) but passed",
                "mkdir::enametoolong_path is a known failure (why) but pjdfstest did not run it"), problems);
    }

    @Test
    void aPatternThatMatchesNoFailureIsReported() {
        assertEquals(List.of("known failures *::socket (no sockets) match no failed test"),
                PjdfstestSuite.problems(RUN.subList(0, 1), Map.of("*::socket", "no sockets")));
    }

    @Test
    void patternsStandForAnyRunOfCharactersAndNothingElse() {
        Map<String, String> known = Map.of("*::fifo", "", "mknod::*", "", "a.b", "");
        assertEquals("*::fifo", PjdfstestSuite.known("open::fifo", known));
        assertEquals("mknod::*", PjdfstestSuite.known("mknod::privileged::socket", known));
        assertEquals("a.b", PjdfstestSuite.known("a.b", known));
        assertNull(PjdfstestSuite.known("open::fifo_nonblock", known));
        assertNull(PjdfstestSuite.known("axb", known));
    }

    @Test
    void aRunAsListedHasNoProblems() {
        assertEquals(List.of(), PjdfstestSuite.problems(RUN,
                Map.of("unlink::open_file_not_freed", "path API", "*::fifo", "no fifos", "rename::exdev_target", "x")));
    }
}
