package dev.fusepanama.nio;

import dev.fusepanama.Errno;
import dev.fusepanama.ErrnoException;

/**
 * Permission bits where DOS's {@code readonly} attribute is the only permission a file has (a
 * provider with a {@code dos} view and neither {@code unix} nor {@code posix}: Windows' default
 * filesystem), mapped as Linux's vfat driver maps it ({@code fs/fat}), mounted with
 * {@code fmask=0133,dmask=0022,rodir}:
 * <ul>
 *   <li>a file is 0644 and a directory 0755; with {@code readonly} set, without their write bits
 *       (0444, 0555). vfat ignores {@code readonly} on a directory unless mounted with
 *       {@code rodir}, as Windows does; here it counts for both, so that a read-only directory
 *       of the provider is not shown writable. {@code hidden}, {@code system} and
 *       {@code archive} are not shown.
 *   <li>chmod is vfat's {@code fat_sanitize_mode}: bits the masks withhold (a file's execute
 *       bits, group and other write bits) are dropped; of what is left, the read and execute
 *       bits must be the ones shown, and no write bit sets {@code readonly}, the owner's clears
 *       it. So {@code chmod a-w} sets it and {@code chmod u+w} (or 0644, or 0755) clears it.
 *   <li>a chmod that asks for set-ID or sticky bits is EPERM, as {@code fat_setattr} answers
 *       (they are outside its {@code FAT_VALID_MODE}).
 *   <li>a chmod that keeps fewer read or execute bits (0600, 0700, o-r) is EPERM too. vfat
 *       accepts such a chmod and changes nothing ({@code fat_setattr}: "We don't return -EPERM
 *       here. Yes, strange, but this is too old behavior."), although {@code man mount} says an
 *       error is returned unless mounted with {@code quiet}. The adapter gives the error: a
 *       {@code chmod 600} that succeeds while the file stays readable by everyone would mislead
 *       the program that asked, and EPERM is what it answers for any chmod a view cannot take.
 * </ul>
 * A new file starts without {@code readonly} whatever mode it is created with: vfat's create
 * ignores the mode too.
 */
final class DosMode {
    private DosMode() {}

    /** What the masks withhold: vfat's {@code fmask} (files) and {@code dmask} (directories). */
    static final int FILE_MASK = 0133;
    static final int DIR_MASK = 0022;

    /** The permission bits of a file or directory whose {@code readonly} attribute is {@code readOnly}. */
    static int bits(boolean directory, boolean readOnly) {
        int bits = 0777 & ~(directory ? DIR_MASK : FILE_MASK);
        return readOnly ? bits & ~0222 : bits;
    }

    /**
     * The {@code readonly} attribute a chmod to {@code mode} (permission bits, 07777) sets;
     * EPERM for a mode vfat could not show (see the class comment).
     */
    static boolean readOnlyAfterChmod(boolean directory, int mode) throws ErrnoException {
        if ((mode & ~0777) != 0) {
            throw new ErrnoException(Errno.EPERM, "set-ID and sticky bits (" + Integer.toOctalString(mode)
                    + ") have no DOS attribute");
        }
        int kept = mode & ~(directory ? DIR_MASK : FILE_MASK);
        int shown = bits(directory, false);
        if ((kept & 0555) != (shown & 0555)) {
            throw new ErrnoException(Errno.EPERM, "mode " + Integer.toOctalString(mode) + " keeps other read and execute bits than "
                    + Integer.toOctalString(shown & 0555) + ", the only ones a DOS attribute can show");
        }
        return (kept & 0222) == 0;
    }
}
