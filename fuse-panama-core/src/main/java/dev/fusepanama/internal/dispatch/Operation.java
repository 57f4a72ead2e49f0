package dev.fusepanama.internal.dispatch;

import static dev.fusepanama.internal.bind.Native.C_INT;
import static dev.fusepanama.internal.bind.Native.C_LONG;
import static dev.fusepanama.internal.bind.Native.C_POINTER;

import dev.fusepanama.ConnectionInfo;
import dev.fusepanama.DirFiller;
import dev.fusepanama.FileInfo;
import dev.fusepanama.Flock;
import dev.fusepanama.FuseConfig;
import dev.fusepanama.FuseFileSystem;
import dev.fusepanama.LinkTarget;
import dev.fusepanama.PollHandle;
import dev.fusepanama.ReadReply;
import dev.fusepanama.Stat;
import dev.fusepanama.StatVfs;
import dev.fusepanama.Timespec;
import dev.fusepanama.WriteBuffer;
import dev.fusepanama.XattrNames;
import java.lang.foreign.FunctionDescriptor;
import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.Set;

/**
 * Every slot of {@code struct fuse_operations}: its C name (also the name of the
 * {@link Upcalls} method serving it), its C signature with pointers as addresses, and the
 * {@link FuseFileSystem} method that implements it, by which overrides are detected.
 */
public enum Operation {
    GETATTR("getattr", FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER), "getattr", String.class, Stat.class, FileInfo.class),
    READLINK("readlink", FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_LONG), "readlink", String.class, LinkTarget.class),
    MKNOD("mknod", FunctionDescriptor.of(C_INT, C_POINTER, C_INT, C_LONG), "mknod", String.class, int.class, long.class),
    MKDIR("mkdir", FunctionDescriptor.of(C_INT, C_POINTER, C_INT), "mkdir", String.class, int.class),
    UNLINK("unlink", FunctionDescriptor.of(C_INT, C_POINTER), "unlink", String.class),
    RMDIR("rmdir", FunctionDescriptor.of(C_INT, C_POINTER), "rmdir", String.class),
    SYMLINK("symlink", FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER), "symlink", String.class, String.class),
    RENAME("rename", FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_INT), "rename", String.class, String.class, int.class),
    LINK("link", FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER), "link", String.class, String.class),
    CHMOD("chmod", FunctionDescriptor.of(C_INT, C_POINTER, C_INT, C_POINTER), "chmod", String.class, int.class, FileInfo.class),
    CHOWN("chown", FunctionDescriptor.of(C_INT, C_POINTER, C_INT, C_INT, C_POINTER), "chown", String.class, int.class, int.class, FileInfo.class),
    TRUNCATE("truncate", FunctionDescriptor.of(C_INT, C_POINTER, C_LONG, C_POINTER), "truncate", String.class, long.class, FileInfo.class),
    OPEN("open", FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER), "open", String.class, FileInfo.class),
    READ("read", FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_LONG, C_LONG, C_POINTER), "read", String.class, ByteBuffer.class, long.class, FileInfo.class),
    WRITE("write", FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_LONG, C_LONG, C_POINTER), "write", String.class, ByteBuffer.class, long.class, FileInfo.class),
    STATFS("statfs", FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER), "statfs", String.class, StatVfs.class),
    FLUSH("flush", FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER), "flush", String.class, FileInfo.class),
    RELEASE("release", FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER), "release", String.class, FileInfo.class),
    FSYNC("fsync", FunctionDescriptor.of(C_INT, C_POINTER, C_INT, C_POINTER), "fsync", String.class, boolean.class, FileInfo.class),
    SETXATTR("setxattr", FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER, C_LONG, C_INT), "setxattr", String.class, String.class, ByteBuffer.class, int.class),
    GETXATTR("getxattr", FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER, C_LONG), "getxattr", String.class, String.class, ByteBuffer.class),
    LISTXATTR("listxattr", FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_LONG), "listxattr", String.class, XattrNames.class),
    REMOVEXATTR("removexattr", FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER), "removexattr", String.class, String.class),
    OPENDIR("opendir", FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER), "opendir", String.class, FileInfo.class),
    READDIR("readdir", FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER, C_LONG, C_POINTER, C_INT), "readdir", String.class, DirFiller.class, long.class, FileInfo.class, int.class),
    RELEASEDIR("releasedir", FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER), "releasedir", String.class, FileInfo.class),
    FSYNCDIR("fsyncdir", FunctionDescriptor.of(C_INT, C_POINTER, C_INT, C_POINTER), "fsyncdir", String.class, boolean.class, FileInfo.class),
    INIT("init", FunctionDescriptor.of(C_POINTER, C_POINTER, C_POINTER), "init", ConnectionInfo.class, FuseConfig.class),
    DESTROY("destroy", FunctionDescriptor.ofVoid(C_POINTER), "destroy"),
    ACCESS("access", FunctionDescriptor.of(C_INT, C_POINTER, C_INT), "access", String.class, int.class),
    CREATE("create", FunctionDescriptor.of(C_INT, C_POINTER, C_INT, C_POINTER), "create", String.class, int.class, FileInfo.class),
    LOCK("lock", FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_INT, C_POINTER), "lock", String.class, FileInfo.class, int.class, Flock.class),
    UTIMENS("utimens", FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER), "utimens", String.class, Timespec.class, Timespec.class, FileInfo.class),
    BMAP("bmap", FunctionDescriptor.of(C_INT, C_POINTER, C_LONG, C_POINTER), "bmap", String.class, long.class, long.class),
    IOCTL("ioctl", FunctionDescriptor.of(C_INT, C_POINTER, C_INT, C_POINTER, C_POINTER, C_INT, C_POINTER), "ioctl", String.class, int.class, long.class, FileInfo.class, int.class, ByteBuffer.class),
    POLL("poll", FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER, C_POINTER), "poll", String.class, FileInfo.class, PollHandle.class),
    WRITE_BUF("write_buf", FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_LONG, C_POINTER), "writeBuf", String.class, WriteBuffer.class, long.class, FileInfo.class),
    READ_BUF("read_buf", FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_LONG, C_LONG, C_POINTER), "readBuf", String.class, ReadReply.class, long.class, long.class, FileInfo.class),
    FLOCK("flock", FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_INT), "flock", String.class, FileInfo.class, int.class),
    FALLOCATE("fallocate", FunctionDescriptor.of(C_INT, C_POINTER, C_INT, C_LONG, C_LONG, C_POINTER), "fallocate", String.class, int.class, long.class, long.class, FileInfo.class),
    COPY_FILE_RANGE("copy_file_range", FunctionDescriptor.of(C_LONG, C_POINTER, C_POINTER, C_LONG, C_POINTER, C_POINTER, C_LONG, C_LONG, C_INT),
            "copyFileRange", String.class, FileInfo.class, long.class, String.class, FileInfo.class, long.class, long.class, int.class),
    LSEEK("lseek", FunctionDescriptor.of(C_LONG, C_POINTER, C_LONG, C_INT, C_POINTER), "lseek", String.class, long.class, int.class, FileInfo.class);

    /** The C name: the fuse_operations field and the {@link Upcalls} method. */
    public final String cName;
    public final FunctionDescriptor descriptor;
    final String javaName;
    final Class<?>[] javaParameters;

    Operation(String cName, FunctionDescriptor descriptor, String javaName, Class<?>... javaParameters) {
        this.cName = cName;
        this.descriptor = descriptor;
        this.javaName = javaName;
        this.javaParameters = javaParameters;
    }

    /** Whether {@code type} (or a supertype other than FuseFileSystem) overrides this operation's method. */
    public boolean isImplementedBy(Class<? extends FuseFileSystem> type) {
        try {
            return type.getMethod(javaName, javaParameters).getDeclaringClass() != FuseFileSystem.class;
        } catch (NoSuchMethodException e) {
            throw new AssertionError("FuseFileSystem lacks " + javaName, e);
        }
    }

    /** The operations {@code type} implements: the ones registered with libfuse. */
    public static Set<Operation> implementedBy(Class<? extends FuseFileSystem> type) {
        Set<Operation> result = EnumSet.noneOf(Operation.class);
        for (Operation op : values()) {
            if (op.isImplementedBy(type)) {
                result.add(op);
            }
        }
        return result;
    }
}
