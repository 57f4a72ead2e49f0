package dev.fusepanama.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The order of a round's runs, and the command line. */
class CompareTest {
    @Test
    void theTwoOfAPairAlternateWhichGoesFirstAndThePairsRotate() {
        List<List<String>> pairs = List.of(List.of("a1", "a2"), List.of("b1", "b2"), List.of("c1", "c2"));
        assertEquals(List.of("a1", "a2", "b2", "b1", "c1", "c2"), Compare.order(pairs, 0));
        assertEquals(List.of("b1", "b2", "c2", "c1", "a2", "a1"), Compare.order(pairs, 1));
    }

    @Test
    void oneGroupRotatesByOneEachRound() {
        assertEquals(List.of("x2", "x3", "x1"), Compare.order(List.of(List.of("x1", "x2", "x3")), 1));
    }

    @Test
    void eachSuiteIsChosenByNameWithItsDefaultScale() {
        assertEquals(2, Compare.parse(new String[] {}).scale());
        Compare.Options memfs = Compare.parse(new String[] {"--suite", "memfs"});
        assertEquals("memfs", memfs.suite());
        assertEquals(5, memfs.rounds());
        assertEquals(1, memfs.scale());
        assertEquals(1 / 32.0, Compare.parse(new String[] {"--suite", "memfs", "--smoke"}).scale());
        assertEquals(2, Compare.parse(new String[] {"--suite", "inode"}).scale());
        assertEquals(1, Compare.parse(new String[] {"--suite", "vault", "--rounds", "3"}).scale());
        assertThrows(IllegalArgumentException.class, () -> Compare.parse(new String[] {"--suite", "tmpfs"}));
    }

    @Test
    void theInodeSuiteRunsTheTreeSuitesWorkloads() throws Exception {
        try (Cleanup cleanup = new Cleanup()) {
            assertSame(TreeWorkloads.METRICS, InodeSuite.open(cleanup).metrics());
        }
    }
}
