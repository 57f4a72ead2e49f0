package dev.fusepanama.nio;

import dev.fusepanama.Posix;
import dev.fusepanama.Stat;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.DosFileAttributes;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Map;
import java.util.Set;

/**
 * A file's attributes as {@code stat(2)} gives them, read through the richest view the provider
 * has: {@code unix} (the default provider on Linux, jimfs: every field), {@code posix}
 * (permission bits, no owner numbers, no set-ID bits), {@code dos} (the {@code readonly}
 * attribute as missing write bits, as vfat shows it: see {@link DosMode}), else {@code basic}
 * (type, size and times; mode 0755 for directories, 0644 for the rest). Owner numbers are the provider's only where
 * they are real users of this machine ({@code realOwners}: the default provider); elsewhere (jimfs
 * numbers its own principals) files belong to {@code owner}/{@code group}, the mounting user's,
 * as on a FAT mount.
 */
record Attributes(int mode, long ino, long nlink, int uid, int gid, long rdev, long size, FileTime atime,
                  FileTime mtime, FileTime ctime, Object fileKey) {

    /** Which view a filesystem's attributes are read through. */
    enum View { UNIX, POSIX, DOS, BASIC }

    static View viewOf(FileSystem fs) {
        Set<String> views = fs.supportedFileAttributeViews();
        return views.contains("unix") ? View.UNIX : views.contains("posix") ? View.POSIX
                : views.contains("dos") ? View.DOS : View.BASIC;
    }

    static Attributes read(Path p, View view, boolean realOwners, int owner, int group) throws IOException {
        return linkFixed(p, readView(p, view, realOwners, owner, group));
    }

    private static Attributes linkFixed(Path p, Attributes a) throws IOException {
        if (a.type() != Posix.S_IFLNK) return a;
        // A symbolic link is 0777 on Linux whatever it was made with, and its size is its target's length.
        long size = a.size != 0 ? a.size : Files.readSymbolicLink(p).toString().getBytes(StandardCharsets.UTF_8).length;
        return new Attributes(Posix.S_IFLNK | 0777, a.ino, a.nlink, a.uid, a.gid, a.rdev, size, a.atime, a.mtime, a.ctime, a.fileKey);
    }

    /**
     * As {@link #read} on a {@code posix} view whose permission bits {@code bits} are already
     * known: only the basic view is read. A provider's posix attributes carry owner principals,
     * and the default provider names them with a passwd and a group lookup on every read
     * (cryptofs's posix view is the default provider's underneath): the larger part of a cached
     * read's cost, for names the mount never shows.
     */
    static Attributes readKnowingBits(Path p, int bits, int owner, int group) throws IOException {
        BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        return linkFixed(p, basic(a, bits, owner, group));
    }

    private static Attributes readView(Path p, View view, boolean realOwners, int owner, int group) throws IOException {
        return switch (view) {
            case UNIX -> unix(Files.readAttributes(p, "unix:*", LinkOption.NOFOLLOW_LINKS), realOwners, owner, group);
            case POSIX -> posix(Files.readAttributes(p, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS), owner, group);
            case DOS -> {
                DosFileAttributes a = Files.readAttributes(p, DosFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                yield basic(a, DosMode.bits(a.isDirectory(), a.isReadOnly()), owner, group);
            }
            case BASIC -> {
                BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                yield basic(a, a.isDirectory() ? 0755 : 0644, owner, group);
            }
        };
    }

    /**
     * The unix view's map. Numbers are Integer or Long depending on the provider, and jimfs's
     * mode has the permission bits only: the type comes from the basic flags then.
     */
    private static Attributes unix(Map<String, Object> a, boolean realOwners, int owner, int group) {
        int mode = num(a, "mode").intValue();
        if ((mode & Posix.S_IFMT) == 0) {
            mode |= Boolean.TRUE.equals(a.get("isDirectory")) ? Posix.S_IFDIR
                    : Boolean.TRUE.equals(a.get("isSymbolicLink")) ? Posix.S_IFLNK
                    : Boolean.TRUE.equals(a.get("isRegularFile")) ? Posix.S_IFREG : Posix.S_IFIFO;
        }
        return new Attributes(mode, num(a, "ino").longValue(), num(a, "nlink").longValue(),
                realOwners ? num(a, "uid").intValue() : owner, realOwners ? num(a, "gid").intValue() : group,
                num(a, "rdev").longValue(), num(a, "size").longValue(), (FileTime) a.get("lastAccessTime"),
                (FileTime) a.get("lastModifiedTime"), (FileTime) a.get("ctime"), a.get("fileKey"));
    }

    private static Number num(Map<String, Object> a, String name) {
        Object v = a.get(name);
        return v instanceof Number n ? n : 0;
    }

    private static Attributes posix(PosixFileAttributes a, int owner, int group) {
        int bits = 0;
        for (PosixFilePermission p : a.permissions()) bits |= 0400 >> p.ordinal();
        return basic(a, bits, owner, group);
    }

    private static Attributes basic(BasicFileAttributes a, int bits, int owner, int group) {
        int type = typeOf(a);
        // Without a unix view nobody counts links: 1 is the convention for "not counted" (a
        // directory's 2 would tell find(1) it has no subdirectories).
        return new Attributes(type | bits, 0, 1, owner, group, 0, a.size(), a.lastAccessTime(),
                a.lastModifiedTime(), a.lastModifiedTime(), a.fileKey());
    }

    static int typeOf(BasicFileAttributes a) {
        if (a.isDirectory()) return Posix.S_IFDIR;
        if (a.isSymbolicLink()) return Posix.S_IFLNK;
        if (a.isRegularFile()) return Posix.S_IFREG;
        return Posix.S_IFIFO; // "other": a FIFO, socket or device, which no view tells apart
    }

    int type() {
        return mode & Posix.S_IFMT;
    }

    /** Fills {@code st}; {@code ino} is the store's number where it has one, else {@code nodeId}. */
    void fill(Stat st, long nodeId) {
        st.setIno(ino != 0 ? ino : nodeId).setMode(mode).setNlink(nlink).setUid(uid).setGid(gid).setRdev(rdev)
                .setSize(size).setBlksize(4096).setBlocks((size + 511) / 512)
                .setAtime(atime.toInstant()).setMtime(mtime.toInstant()).setCtime(ctime.toInstant());
    }
}
