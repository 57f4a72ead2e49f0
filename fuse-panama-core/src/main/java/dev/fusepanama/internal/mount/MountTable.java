package dev.fusepanama.internal.mount;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** The kernel's mount table as this process sees it ({@code /proc/self/mountinfo}, proc(5)). */
final class MountTable {
    /** One mount: {@code options} are the per-mount ones ({@code rw,nosuid,relatime}). */
    record Entry(Path mountpoint, String type, String source, String device, String options) {}

    private final List<Entry> entries;

    MountTable(List<Entry> entries) {
        this.entries = entries;
    }

    static MountTable read() {
        try {
            return parse(Files.readAllLines(Path.of("/proc/self/mountinfo")));
        } catch (IOException e) {
            return new MountTable(List.of());
        }
    }

    /**
     * Parses mountinfo lines: {@code id parent major:minor root mountpoint options [optional...] -
     * fstype source superoptions}; names escape space, tab, newline and backslash as octal.
     */
    static MountTable parse(List<String> lines) {
        List<Entry> result = new ArrayList<>();
        for (String line : lines) {
            String[] f = line.split(" ");
            int dash = Arrays.asList(f).indexOf("-");
            if (f.length < 6 || dash < 0 || dash + 2 >= f.length) {
                continue;
            }
            result.add(new Entry(Path.of(unescape(f[4])), f[dash + 1], unescape(f[dash + 2]), f[2], f[5]));
        }
        return new MountTable(result);
    }

    /** The topmost mount at exactly {@code mountpoint}. */
    Optional<Entry> find(Path mountpoint) {
        Entry found = null;
        for (Entry e : entries) {
            if (e.mountpoint().equals(mountpoint)) {
                found = e;
            }
        }
        return Optional.ofNullable(found);
    }

    private static String unescape(String s) {
        if (s.indexOf('\\') < 0) {
            return s;
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 3 < s.length()) {
                sb.append((char) Integer.parseInt(s.substring(i + 1, i + 4), 8));
                i += 3;
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }
}
