package dev.fusepanama;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Conventions every module's main sources keep, checked over the whole repository: JDK types are
 * imported, not spelt out inline ({@code java.util.List} in the middle of code hides what a file
 * depends on, and the imports are where a reader looks).
 */
class SourceConventionsTest {
    /** A qualified JDK type name: a package of java or javax, then a capitalised simple name. */
    private static final Pattern QUALIFIED = Pattern.compile("(?<![\\w.])(?:java|javax)\\.[a-z]\\w*(?:\\.[a-z]\\w*)*\\.[A-Z]\\w*");

    @Test
    void mainSourcesImportJdkTypesInsteadOfQualifyingThemInline() throws IOException {
        List<String> found = new ArrayList<>();
        List<Path> files = mainSources();
        assertTrue(files.size() > 100, "found the repository's main sources: " + files.size());
        for (Path f : files) {
            String code = codeOnly(Files.readString(f));
            int line = 1;
            int at = 0;
            Matcher m = QUALIFIED.matcher(code);
            while (m.find()) {
                for (; at < m.start(); at++) {
                    if (code.charAt(at) == '\n') line++;
                }
                found.add(f + ":" + line + ": " + m.group());
            }
        }
        assertEquals(List.of(), found, "import these instead");
    }

    @Test
    void theCheckSeesCodeButNotCommentsStringsOrImports() {
        String code = codeOnly("""
                package a.b;
                import java.util.List;
                /** {@link java.util.Map} */
                class C { // java.util.Set
                    String s = "java.util.Deque";
                    char c = '"';
                    java.time.Duration d; /* java.io.File */
                }
                """);
        Matcher m = QUALIFIED.matcher(code);
        assertTrue(m.find());
        assertEquals("java.time.Duration", m.group());
        assertTrue(!m.find(), "only the one in code");
    }

    private static List<Path> mainSources() throws IOException {
        Path root = Path.of("").toAbsolutePath().getParent();
        List<Path> all = new ArrayList<>();
        try (Stream<Path> modules = Files.list(root)) {
            for (Path module : modules.filter(p -> p.getFileName().toString().startsWith("fuse-panama-")).toList()) {
                Path main = module.resolve("src/main/java");
                if (!Files.isDirectory(main)) continue;
                try (Stream<Path> walk = Files.walk(main)) {
                    walk.filter(p -> p.toString().endsWith(".java")).forEach(all::add);
                }
            }
        }
        return all;
    }

    /**
     * {@code source} with comments, string, text-block and character literals, and package and
     * import lines blanked (newlines kept, so line numbers stay).
     */
    static String codeOnly(String source) {
        StringBuilder out = new StringBuilder(source.length());
        int i = 0;
        int n = source.length();
        boolean lineStart = true;
        while (i < n) {
            char c = source.charAt(i);
            if (lineStart) {
                int k = i;
                while (k < n && (source.charAt(k) == ' ' || source.charAt(k) == '\t')) k++;
                if (source.startsWith("import ", k) || source.startsWith("package ", k)) {
                    int end = source.indexOf('\n', k);
                    i = end < 0 ? n : end; // the newline itself is kept
                    lineStart = false;
                    continue;
                }
            }
            if (source.startsWith("//", i)) {
                int end = source.indexOf('\n', i);
                i = end < 0 ? n : end;
            } else if (source.startsWith("/*", i)) {
                int end = source.indexOf("*/", i + 2);
                i = blank(source, i, end < 0 ? n : end + 2, out);
            } else if (source.startsWith("\"\"\"", i)) {
                int end = source.indexOf("\"\"\"", i + 3);
                i = blank(source, i, end < 0 ? n : end + 3, out);
            } else if (c == '"' || c == '\'') {
                int j = i + 1;
                while (j < n && source.charAt(j) != c && source.charAt(j) != '\n') {
                    j += source.charAt(j) == '\\' ? 2 : 1;
                }
                i = blank(source, i, Math.min(n, j + 1), out);
            } else {
                out.append(c);
                i++;
            }
            lineStart = out.length() > 0 && out.charAt(out.length() - 1) == '\n';
        }
        return out.toString();
    }

    /** Appends the newlines of {@code source[from, to)} only; returns {@code to}. */
    private static int blank(String source, int from, int to, StringBuilder out) {
        for (int k = from; k < to; k++) {
            if (source.charAt(k) == '\n') out.append('\n');
        }
        out.append(' ');
        return to;
    }
}
