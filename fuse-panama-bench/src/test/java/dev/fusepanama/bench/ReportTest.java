package dev.fusepanama.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** How a run's section lands in RESULTS.md. */
class ReportTest {
    private static final String RESULTS = """
            # results

            Intro.

            ## Tree

            Command: `old tree`

            | old | table |

            ### Analysis

            Written by hand.

            ## Mirror

            Command: `old mirror`

            ### Analysis

            Also by hand.
            """;

    @Test
    void aRunReplacesItsSectionUpToTheNextHeadingAndKeepsTheRest() {
        String section = "## Tree\n\nCommand: `new tree`\n\n| new | table |\n";
        assertEquals(RESULTS.replace("Command: `old tree`\n\n| old | table |\n", "Command: `new tree`\n\n| new | table |\n"),
                Report.replaceSection(RESULTS, section));
    }

    @Test
    void theLastSectionOfTheFileIsReplacedToItsEnd() {
        String document = "# results\n\n## Mirror\n\nCommand: `old`\n";
        assertEquals("# results\n\n## Mirror\n\nCommand: `new`\n", Report.replaceSection(document, "## Mirror\n\nCommand: `new`\n"));
    }

    @Test
    void aSectionNotYetInTheFileIsAppended() {
        assertEquals(RESULTS + "\n## Other\n\nCommand: `x`\n", Report.replaceSection(RESULTS, "## Other\n\nCommand: `x`\n"));
    }

    @Test
    void theHeadlineIsTheHeadingCommandMeasurementAndFirstTable() {
        String section = "## Suite (`--suite x`)\n\nCommand: `compare --suite x`\n\nMeasured today\non 2 cores.\n\n"
                + "Settings, long.\n\n| metric | a |\n|---|---:|\n| m | 1 |\n\nCPU:\n\n| metric | a |\n|---|---:|\n| m | 2 |\n";
        assertEquals("## Suite (`--suite x`)\n\nCommand: `compare --suite x`\n\nMeasured today\non 2 cores.\n\n"
                + "| metric | a |\n|---|---:|\n| m | 1 |\n\n"
                + "The whole section (settings, CPU per operation, the processes, the analysis): `results/x.md`.\n",
                Report.headline(section, "results/x.md", List.of()));
    }

    @Test
    void theHeadlineTableKeepsTheMetricItsUnitAndTheRatiosAsked() {
        String section = "## S\n\nCommand: `c`\n\nMeasured.\n\n"
                + "| metric | unit | a | b | a / b | a / c |\n|---|---|---:|---:|---:|---:|\n| m | ms | 1 | 2 | 0.50 [0.4-0.6] | 2.00 [1-3] |\n";
        String head = "## S\n\nCommand: `c`\n\nMeasured.\n\n";
        String tail = "\nThe whole section (settings, CPU per operation, the processes, the analysis): `results/s.md`.\n";
        assertEquals(head + "| metric | unit | a / b | a / c |\n|---|---|---:|---:|\n| m | ms | 0.50 [0.4-0.6] | 2.00 [1-3] |\n" + tail,
                Report.headline(section, "results/s.md", List.of()), "every ratio column, no values");
        assertEquals(head + "| metric | unit | a / c |\n|---|---|---:|\n| m | ms | 2.00 [1-3] |\n" + tail,
                Report.headline(section, "results/s.md", List.of("a / c")), "only the ratios asked for");
    }

    @Test
    void numbersKeepThreeSignificantDigitsWithoutExponents() {
        assertEquals("30002", Report.number(30002.4));
        assertEquals("56.7", Report.number(56.74));
        assertEquals("4.47", Report.number(4.4651));
        assertEquals("0.00130", Report.number(0.0013));
        assertEquals("-", Report.number(Double.NaN));
    }
}
