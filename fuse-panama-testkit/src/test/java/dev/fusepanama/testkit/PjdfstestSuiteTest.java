package dev.fusepanama.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How pjdfstest 0.2.2's output is read: its result lines as main.rs prints them, padded. */
class PjdfstestSuiteTest {
    private static final List<String> RUN = List.of(
            "chmod::permission_bits                                                    ok",
            "rename::exdev_target                                                     FAILED",
            "\tassertion `left == right` failed",
            "  left: ENOENT",
            " right: EXDEV",
            "link::link_count_max                                                    skipped",
            "\tCannot get value for LINK_MAX: filesystem limit is unknown",
            "unlink::open_file_not_freed                                  failed as expected",
            "open::etxtbsy                                               PASSED UNEXPECTEDLY",
            "",
            "Summary: 2 failed, 1 skipped, 1 passed, 1 expected failures, 5 total");

    @Test
    void aFailureOutsideTheListIsReportedWithEverythingPrintedAboutIt() {
        List<String> problems = PjdfstestSuite.problems(RUN, Map.of(
                "unlink::open_file_not_freed", "path API", "open::etxtbsy", "was racy"));
        assertEquals(List.of(
                "rename::exdev_target FAILED\n    assertion `left == right` failed\n    left: ENOENT\n    right: EXDEV",
                "open::etxtbsy PASSED UNEXPECTEDLY"), problems);
    }

    @Test
    void aKnownFailureThatDidNotRunIsReported() {
        List<String> problems = PjdfstestSuite.problems(RUN.subList(0, 1), Map.of("mkdir::enametoolong_path", "why"));
        assertEquals(List.of("mkdir::enametoolong_path is a known failure (why) but pjdfstest did not run it"), problems);
    }

    @Test
    void aRunAsListedHasNoProblems() {
        assertEquals(List.of(), PjdfstestSuite.problems(List.of(RUN.get(0), RUN.get(5), RUN.get(6), RUN.get(7)),
                Map.of("unlink::open_file_not_freed", "path API")));
    }
}
