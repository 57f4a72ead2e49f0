package dev.fusepanama.cryptomator;

import dev.fusepanama.MountOptions;
import dev.fusepanama.PathOptions;
import dev.fusepanama.nio.NioOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.cryptomator.integrations.mount.MountFailedException;

/**
 * Cryptomator's mount flags with the meaning fuse-nio-adapter, Cryptomator's own Linux provider,
 * gives them: it hands them to libfuse's path API, so besides FUSE's mount options they carry
 * that API's {@code uid=}, {@code gid=}, {@code umask=} (every file shown with that owner and
 * mode) and its cache times {@code attr_timeout=}, {@code entry_timeout=},
 * {@code negative_timeout=} (seconds). This provider serves on the inode API, so those become
 * {@link NioOptions}; the rest are {@link MountOptions.Builder#fuseOptions FUSE's own}. A flag
 * it cannot honour (another of the path API's settings, a name FUSE does not know, a malformed
 * value) fails the mount, naming the flag.
 */
final class MountFlags {
    /** Ours, as {@code getDefaultMountFlags} shows them: the kernel drops the mount if the application dies; NioOptions' timeouts. */
    static final String DEFAULTS = "-oauto_unmount -oattr_timeout=1 -oentry_timeout=1 -onegative_timeout=1";

    final NioOptions nio;
    /** FUSE's own options among the flags, as one {@code -o} list (empty for none). */
    final String fuse;

    private MountFlags(NioOptions nio, String fuse) {
        this.nio = nio;
        this.fuse = fuse;
    }

    static MountFlags parse(String flags) throws MountFailedException {
        NioOptions.Builder nio = NioOptions.builder();
        List<String> fuse = new ArrayList<>();
        for (String option : options(flags)) {
            String name = MountOptions.optionName(option);
            String value = name.length() == option.length() ? null : option.substring(name.length() + 1);
            try {
                switch (name) {
                    case "uid" -> nio.owner(Integer.parseInt(value(option, value)));
                    case "gid" -> nio.group(Integer.parseInt(value(option, value)));
                    case "umask" -> nio.umask(Integer.parseInt(value(option, value), 8));
                    case "attr_timeout" -> nio.attributeTimeout(seconds(option, value));
                    case "entry_timeout" -> nio.entryTimeout(seconds(option, value));
                    case "negative_timeout" -> nio.negativeTimeout(seconds(option, value));
                    default -> {
                        if (PathOptions.isSetting(option) || PathOptions.isPassedOn(option)) {
                            throw new MountFailedException("mount flag -o" + option + ": a setting of libfuse's path API that "
                                    + "this provider does not honour (it serves through the inode API); of that API it takes "
                                    + "uid=, gid=, umask=, attr_timeout=, entry_timeout= and negative_timeout=");
                        }
                        if (!MountOptions.isMountOption(option)) {
                            throw new MountFailedException("mount flag -o" + option + ": not an option FUSE knows");
                        }
                        fuse.add(option);
                    }
                }
            } catch (NumberFormatException e) {
                throw new MountFailedException("mount flag -o" + option + ": " + value + " is not a "
                        + (name.equals("umask") ? "umask in octal" : "whole number"));
            } catch (IllegalArgumentException e) {
                throw new MountFailedException("mount flag -o" + option + ": " + e.getMessage());
            }
        }
        String joined = String.join(",", fuse);
        try {
            MountOptions.builder().fuseOptions(joined); // contradictions (ro and rw) and malformed values
        } catch (IllegalArgumentException e) {
            throw new MountFailedException("mount flags '" + flags + "': " + e.getMessage(), e);
        }
        return new MountFlags(nio.build(), joined);
    }

    /** The single options of a command line of {@code -o LIST}, {@code -oLIST} or bare lists. */
    private static List<String> options(String flags) throws MountFailedException {
        try {
            return MountOptions.splitOptions(flags);
        } catch (IllegalArgumentException e) {
            throw new MountFailedException("mount flags '" + flags + "': " + e.getMessage(), e);
        }
    }

    private static String value(String option, String value) {
        if (value == null || value.isEmpty()) throw new IllegalArgumentException("needs a value: " + option + "=VALUE");
        return value;
    }

    private static Duration seconds(String option, String value) {
        double s;
        try {
            s = Double.parseDouble(value(option, value));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(value + " is not a number of seconds");
        }
        if (!(s >= 0) || Double.isInfinite(s)) throw new IllegalArgumentException(value + " is not a number of seconds >= 0");
        return Duration.ofNanos((long) (s * 1e9));
    }
}
