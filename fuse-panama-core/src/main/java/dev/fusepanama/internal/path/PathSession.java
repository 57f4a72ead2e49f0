package dev.fusepanama.internal.path;

import dev.fusepanama.ConnectionInfo;
import dev.fusepanama.DirFiller;
import dev.fusepanama.Errno;
import dev.fusepanama.FileInfo;
import dev.fusepanama.Flock;
import dev.fusepanama.ForwardingFileSystem;
import dev.fusepanama.FuseConfig;
import dev.fusepanama.FuseFileSystem;
import dev.fusepanama.FuseMount;
import dev.fusepanama.LinkTarget;
import dev.fusepanama.MountException;
import dev.fusepanama.MountOptions;
import dev.fusepanama.KernelSettings;
import dev.fusepanama.PathOptions;
import dev.fusepanama.ReadReply;
import dev.fusepanama.Stat;
import dev.fusepanama.StatVfs;
import dev.fusepanama.Statx;
import dev.fusepanama.Timespec;
import dev.fusepanama.WriteBuffer;
import dev.fusepanama.XattrNames;
import dev.fusepanama.internal.bind.LibFuse;
import dev.fusepanama.internal.bind.LibFuseVersion;
import dev.fusepanama.internal.bind.Native;
import dev.fusepanama.internal.bind.fuse_operations;
import dev.fusepanama.internal.codec.NameCodec;
import dev.fusepanama.internal.dispatch.ErrorMapper;
import dev.fusepanama.internal.dispatch.InitListener;
import dev.fusepanama.internal.dispatch.Operation;
import dev.fusepanama.internal.dispatch.ViewCheck;
import dev.fusepanama.internal.mount.MountSession;
import dev.fusepanama.internal.view.NativeConnectionInfo;
import dev.fusepanama.internal.view.NativeFuseConfig;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** A {@link FuseFileSystem} mounted through libfuse's high-level (path) API: {@code fuse_new}, {@code fuse_loop_mt}. */
public final class PathSession extends MountSession implements FuseMount, InitListener {
    private final FuseFileSystem fs;
    private final PathOptions pathOptions;
    /** What a path filesystem's methods receive that points into libfuse's memory ({@link ViewCheck}). */
    private static final Set<Class<?>> VIEWS = Set.of(Stat.class, FileInfo.class,
            DirFiller.class, LinkTarget.class, XattrNames.class,
            StatVfs.class, Timespec.class, Flock.class,
            WriteBuffer.class, ReadReply.class, ConnectionInfo.class,
            FuseConfig.class, Statx.class);
    private final Set<Operation> operations;

    private PathSession(LibFuse lib, Path mountpoint, MountOptions options, PathOptions pathOptions, FuseFileSystem fs,
            Set<Operation> operations, KernelSettings settings) {
        super(lib, mountpoint, options, settings);
        this.pathOptions = pathOptions;
        this.fs = fs;
        this.operations = operations;
    }

    public static PathSession mount(FuseFileSystem fs, Path mountpoint, MountOptions options, PathOptions pathOptions)
            throws MountException {
        KernelSettings settings = fs.kernelSettings();
        checkedSettings(settings, fs, mountpoint, options, settings == null ? List.of() : settings.inodeOnly(),
                "libfuse's path layer opens and lists directories itself");
        LibFuse lib = libfuse(mountpoint);
        Path at = checkedMountpoint(mountpoint);
        Set<Operation> ops = operationsFor(Upcalls.OPERATIONS, ForwardingFileSystem.innermost(fs).getClass(), options,
                fuse_operations.layout(lib.version), lib, at);
        PathSession session = new PathSession(lib, at, options, pathOptions, fs, ops, settings);
        session.start();
        return session;
    }

    @Override
    protected long create(MemorySegment args) throws Throwable {
        FuseFileSystem served = checksViews ? ViewCheck.wrap(fs, FuseFileSystem.class, VIEWS) : fs;
        Upcalls upcalls = new Upcalls(served, new ErrorMapper(ErrorMapper.PATH_LOGGER, mountpoint.toString()), this, this, backing);
        MemorySegment table = Operation.table(lib.layouts.operations(), operations, op -> upcalls.stub(op, arena), arena);
        long size = lib.layouts.operations().byteSize();
        if (lib.version.newSymbol() == LibFuseVersion.NewSymbol.FUSE_NEW_317) {
            // struct libfuse_version {major, minor, hotfix, padding}: the release whose layouts we
            // use, as fuse.h's inline fuse_new passes the release a program was compiled against.
            return (long) lib.fuseNew.invokeExact(args, table, size, compiledVersion(), 0L);
        }
        return (long) lib.fuseNew.invokeExact(args, table, size, 0L);
    }

    @Override
    protected EntryPoints entryPoints() {
        return new EntryPoints(lib.mount, lib.unmount, lib.destroy, lib.loop, lib.loopMt);
    }

    @Override
    protected boolean insideOwnRequest() {
        try {
            long context = (long) lib.getContext.invokeExact();
            return handle != 0 && context != 0 && Native.getAddress(context) == handle;
        } catch (Throwable t) {
            return false;
        }
    }

    @Override
    protected int operationCount() {
        return operations.size();
    }

    @Override
    public void configure(NativeConnectionInfo connection, NativeFuseConfig config) {
        config.apply(pathOptions, settings, options.interrupts(), lib.version.atLeast(3, 17, 0));
        connection.apply(options, settings);
        List<String> got = new ArrayList<>();
        List<String> not = new ArrayList<>();
        applySettings(connection, got, not);
        settingsSettled(got, not);
        negotiate(connection);
        checkIoUring(connection);
    }

    @Override
    protected long session() throws Throwable {
        return (long) lib.getSession.invokeExact(handle);
    }

    @Override
    public boolean invalidate(String path) throws IOException {
        if (path == null || !path.startsWith("/")) {
            throw new IllegalArgumentException("a path in the mount starts with '/': " + path);
        }
        byte[] bytes = NameCodec.encode(path);
        int rc = whileLive("invalidating " + path, (fuse, a) -> {
            MemorySegment cPath = a.allocate(bytes.length + 1L);
            MemorySegment.copy(bytes, 0, cPath, ValueLayout.JAVA_BYTE, 0, bytes.length);
            return (int) lib.invalidatePath.invokeExact(fuse, cPath.address());
        });
        if (rc == -Errno.ENOENT) {
            return false;
        }
        if (rc < 0) {
            throw new IOException("invalidating " + path + " in " + mountpoint + " failed: " + Errno.name(-rc));
        }
        return true;
    }

}
