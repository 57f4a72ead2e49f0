package dev.fusepanama.internal.bind;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

import java.lang.foreign.StructLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Compares Java struct layouts with the layout probe's output; returns every disagreement. */
final class LayoutCheck {
    private LayoutCheck() {}

    static List<String> compare(Map<String, StructLayout> layouts, Map<String, Integer> fileInfoBits, List<String> probe) {
        List<String> problems = new ArrayList<>();
        int checked = 0;
        for (String line : probe) {
            String[] f = line.trim().split(" ");
            switch (f[0]) {
                case "size" -> {
                    StructLayout l = layouts.get(f[1]);
                    long c = Long.parseLong(f[2]);
                    if (l == null) problems.add("no Java layout for struct " + f[1]);
                    else if (l.byteSize() != c) problems.add("sizeof(struct " + f[1] + "): C " + c + ", Java " + l.byteSize());
                }
                case "offset" -> {
                    StructLayout l = layouts.get(f[1]);
                    long c = Long.parseLong(f[3]);
                    if (l == null) {
                        problems.add("no Java layout for struct " + f[1]);
                        break;
                    }
                    try {
                        long j = l.byteOffset(groupElement(f[2]));
                        if (j != c) problems.add("offsetof(" + f[1] + ", " + f[2] + "): C " + c + ", Java " + j);
                    } catch (IllegalArgumentException e) {
                        problems.add("Java layout of " + f[1] + " has no field " + f[2]);
                    }
                }
                case "bit" -> {
                    Integer j = fileInfoBits.get(f[2]);
                    int c = Integer.parseInt(f[3]);
                    if (j == null) problems.add("no Java bit constant for fuse_file_info." + f[2]);
                    else if (j != c) problems.add("bit of fuse_file_info." + f[2] + ": C " + c + ", Java " + j);
                }
                case "version", "arch" -> {
                    continue; // checked by the caller against the loaded library and the JVM
                }
                default -> problems.add("unexpected probe line: " + line);
            }
            checked++;
        }
        if (checked == 0) {
            problems.add("the probe printed nothing");
        }
        return problems;
    }
}
