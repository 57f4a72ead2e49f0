package dev.fusepanama.bench;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.stream.Collectors;

/** A suite's section of RESULTS.md, in Markdown: the command, the machine, the two tables and what was measured around them. */
final class Report {
    private Report() {}

    /** What was read of one filesystem process after the timed rounds. */
    record Process(String name, long peakRssKiB, int idleWorkers, boolean jit, double jitShare, double unseenShare) {}

    static String section(Suite suite, Compare.Options options, int warmupPasses, Samples values, Samples cpu,
                          List<Process> processes, String extra) throws Exception {
        String scale = BigDecimal.valueOf(options.scale()).stripTrailingZeros().toPlainString();
        StringBuilder sb = new StringBuilder();
        sb.append(suite.heading()).append("\n\n");
        sb.append("Command: `").append(options.command()).append("`\n\n");
        sb.append(wrap(machine(suite) + " Medians of " + plural(options.rounds(), "interleaved round") + " at scale " + scale
                + " after " + plural(warmupPasses, "warm-up pass") + "; ratios taken per round, as median [lowest-highest].")).append("\n\n");
        sb.append(wrap(suite.settings())).append("\n\n");
        sb.append(table(suite, suite.columns(), values, true));
        sb.append("\nFilesystem-process CPU per operation (us, medians; schedstat of all its threads; lower is better):\n\n");
        sb.append(table(suite, suite.cpuColumns(), cpu, false));
        sb.append('\n').append(processTable(processes));
        if (!extra.isEmpty()) sb.append('\n').append(extra);
        return sb.toString();
    }

    /** The date, the machine, the kernel, the JDK and the suite's libfuse. */
    private static String machine(Suite suite) throws Exception {
        String cpuModel = Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                .findFirst().map(l -> l.replaceAll(".*: ", "")).orElse("unknown CPU");
        String kernel = Files.readString(Path.of("/proc/sys/kernel/osrelease")).trim();
        return "Measured " + ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'"))
                + " on " + Runtime.getRuntime().availableProcessors() + " cores (" + cpuModel + "), kernel " + kernel
                + ", JDK " + Runtime.version() + ", libfuse " + suite.libfuse() + ".";
    }

    private static String table(Suite suite, List<Suite.Column> columns, Samples samples, boolean withUnit) {
        StringBuilder sb = new StringBuilder("| metric |");
        if (withUnit) sb.append(" unit |");
        for (Suite.Column c : columns) {
            sb.append(' ').append(switch (c) {
                case Suite.Column.Median m -> m.filesystem();
                case Suite.Column.Ratio r -> r.header();
            }).append(" |");
        }
        sb.append(withUnit ? "\n|---|---|" : "\n|---|").append("---:|".repeat(columns.size())).append('\n');
        for (Suite.Metric m : suite.metrics()) {
            sb.append("| ").append(m.name()).append(" |");
            if (withUnit) sb.append(' ').append(m.unit()).append(m.throughput() ? " (higher is better)" : "").append(" |");
            // CPU is lower-is-better on every row; the row's own direction otherwise.
            boolean higherIsBetter = withUnit && m.throughput();
            for (Suite.Column c : columns) {
                sb.append(' ').append(switch (c) {
                    case Suite.Column.Median md -> number(samples.median(m.name(), md.filesystem()));
                    case Suite.Column.Ratio r -> samples.pairedRatio(m.name(), r.numerator(),
                            samples.best(m.name(), r.denominators(), higherIsBetter));
                }).append(" |");
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    /** {@code share} in percent with {@code decimals} decimals; never "-0.0". */
    private static String percent(double share, int decimals) {
        double scale = Math.pow(10, decimals);
        return String.format(Locale.ROOT, "%." + decimals + "f %%", Math.round(100 * share * scale) / scale);
    }

    private static String plural(int n, String noun) {
        return n + " " + noun + (n == 1 ? "" : noun.endsWith("s") ? "es" : "s");
    }

    /** Per filesystem process: peak RSS, idle workers, the JIT compiler's share, and the check of the CPU readings. */
    private static String processTable(List<Process> processes) {
        StringBuilder sb = new StringBuilder("| filesystem process |");
        for (Process p : processes) sb.append(' ').append(p.name()).append(" |");
        sb.append("\n|---|").append("---:|".repeat(processes.size())).append('\n');
        sb.append(row("peak RSS (VmHWM)", processes, p -> p.peakRssKiB() / 1024 + " MiB"));
        sb.append(row("libfuse workers at the end (idle in a read of /dev/fuse)", processes,
                p -> p.idleWorkers() < 0 ? "?" : Integer.toString(p.idleWorkers())));
        sb.append(row("JIT compiler threads' share of its CPU in the timed rounds", processes,
                p -> p.jit() ? percent(p.jitShare(), 2) : "-"));
        // The per-thread readings miss threads that exited; the process's own count keeps them.
        sb.append(row("its CPU over the timed rounds (/proc/PID/stat) beyond its threads' sum", processes,
                p -> percent(p.unseenShare(), 1)));
        return sb.toString();
    }

    private static String row(String label, List<Process> processes, Function<Process, String> value) {
        return "| " + label + " | " + processes.stream().map(value).collect(Collectors.joining(" | ")) + " |\n";
    }

    /** {@code text} broken into lines of at most 100 characters, at spaces. */
    static String wrap(String text) {
        StringBuilder sb = new StringBuilder();
        int lineStart = 0;
        for (String word : text.split(" ")) {
            if (sb.length() > lineStart && sb.length() - lineStart + 1 + word.length() > 100) {
                sb.append('\n');
                lineStart = sb.length();
            } else if (sb.length() > lineStart) {
                sb.append(' ');
            }
            sb.append(word);
        }
        return sb.toString();
    }

    /** At least three significant digits, never in exponent form. */
    static String number(double v) {
        if (Double.isNaN(v)) return "-";
        double a = Math.abs(v);
        if (a >= 100) return String.format(Locale.ROOT, "%.0f", v);
        if (a >= 10) return String.format(Locale.ROOT, "%.1f", v);
        if (a >= 1) return String.format(Locale.ROOT, "%.2f", v);
        return new BigDecimal(v).round(new MathContext(3)).toPlainString();
    }

    /**
     * The headline of a suite's {@code section} for RESULTS.md: its heading, command, when and where
     * it was measured, and its first table cut to the metric, its unit and the ratio columns (a
     * header with " / "), only those named in {@code ratios} if it names any; then where the whole
     * section is ({@code full}, relative to RESULTS.md).
     */
    static String headline(String section, String full, List<String> ratios) {
        List<String> lines = section.lines().toList();
        StringBuilder sb = new StringBuilder();
        int i = 0;
        int paragraphs = 0;
        // heading, command, the "Measured ..." paragraph: the first three blocks
        for (; i < lines.size() && paragraphs < 3; i++) {
            String l = lines.get(i);
            if (l.isEmpty()) paragraphs++;
            sb.append(l).append('\n');
        }
        while (i < lines.size() && !lines.get(i).startsWith("|")) i++;
        List<Integer> keep = new ArrayList<>();
        for (; i < lines.size() && lines.get(i).startsWith("|"); i++) {
            List<String> cells = cells(lines.get(i));
            if (keep.isEmpty()) {
                for (int c = 0; c < cells.size(); c++) {
                    String h = cells.get(c);
                    if (c < 2 || h.contains(" / ") && (ratios.isEmpty() || ratios.contains(h))) keep.add(c);
                }
            }
            List<String> kept = new ArrayList<>();
            for (int c : keep) kept.add(c < cells.size() ? cells.get(c) : "");
            sb.append(cells.get(0).startsWith("-") ? "|" + String.join("|", kept) + "|" : "| " + String.join(" | ", kept) + " |").append('\n');
        }
        sb.append("\nThe whole section (settings, CPU per operation, the processes, the analysis): `").append(full).append("`.\n");
        return sb.toString();
    }

    /** The cells of a Markdown table row, stripped. */
    private static List<String> cells(String row) {
        String inner = row.strip();
        inner = inner.substring(1, inner.endsWith("|") ? inner.length() - 1 : inner.length());
        List<String> cells = new ArrayList<>();
        for (String c : inner.split("\\|", -1)) cells.add(c.strip());
        return cells;
    }

    /**
     * Replaces, in {@code file}, the section starting with {@code section}'s first line (its
     * heading); see {@link #replaceSection(String, String)}.
     */
    static void write(Path file, String section) throws IOException {
        String old = Files.exists(file) ? Files.readString(file) : "";
        Files.writeString(file, replaceSection(old, section));
    }

    /**
     * {@code document} with the section that starts with {@code section}'s heading replaced: from
     * that heading line to the next heading of any level, so hand-written text under headings of
     * its own (a suite's "### Analysis") and every other section stay as they are. A section not
     * there yet is appended.
     */
    static String replaceSection(String document, String section) {
        String heading = section.lines().findFirst().orElseThrow();
        List<String> lines = document.lines().toList();
        int start = lines.indexOf(heading);
        String body = section.endsWith("\n") ? section : section + "\n";
        if (start < 0) return document.isEmpty() ? body : document.stripTrailing() + "\n\n" + body;
        int end = start + 1;
        while (end < lines.size() && !lines.get(end).startsWith("#")) end++;
        StringBuilder sb = new StringBuilder();
        for (String l : lines.subList(0, start)) sb.append(l).append('\n');
        sb.append(body);
        if (end < lines.size()) sb.append('\n');
        for (String l : lines.subList(end, lines.size())) sb.append(l).append('\n');
        return sb.toString();
    }
}
