package dev.fusepanama.inode;

import dev.fusepanama.Posix;

/**
 * The rule a local filesystem follows for set-ID bits when a file's data changes (Linux 6.2+'s
 * {@code setattr_should_drop_suidgid}), for a filesystem that applies it itself
 * ({@link dev.fusepanama.KernelSettings.Builder#handleKillprivV2}, or a store that does not see the caller).
 */
public final class SetId {
    private SetId() {}

    /**
     * The mode of a regular file after {@code caller} wrote to, truncated, allocated in or copied
     * into it: without CAP_FSETID, the set-user-ID bit goes, and the set-group-ID bit of a file
     * that is group-executable or whose group {@code fileGid} the caller is not in. Reads
     * {@code /proc} only when the mode has such a bit.
     *
     * @param mode the file's mode before the change
     * @param fileGid the file's group
     * @param caller the request that changed the data
     * @return the mode to keep: {@code mode} less the set-ID bits the change drops
     */
    public static int afterDataChange(int mode, int fileGid, Request caller) {
        boolean suid = (mode & Posix.S_ISUID) != 0;
        boolean sgid = (mode & Posix.S_ISGID) != 0 && ((mode & 0010) != 0 || !inGroup(caller, fileGid));
        if (!(suid || sgid) || caller.mayKeepSetId()) {
            return mode;
        }
        return mode & ~(suid ? Posix.S_ISUID : 0) & ~(sgid ? Posix.S_ISGID : 0);
    }

    /**
     * Whether {@code caller}'s group or one of its supplementary groups is {@code gid}.
     *
     * @param caller the request whose caller is asked about
     * @param gid the group
     * @return true if the caller is in that group
     */
    public static boolean inGroup(Request caller, int gid) {
        if (caller.gid() == gid) return true;
        for (int g : caller.groups()) {
            if (g == gid) return true;
        }
        return false;
    }
}
