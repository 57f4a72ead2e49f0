package dev.fusepanama.internal.bind;

import static dev.fusepanama.internal.bind.Native.C_DOUBLE;
import static dev.fusepanama.internal.bind.Native.C_INT;
import static dev.fusepanama.internal.bind.Native.C_LONG;
import static dev.fusepanama.internal.bind.Native.C_POINTER;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;

/**
 * libfuse's low-level (inode) API: the session, the replies and the notifications
 * (fuse_lowlevel.h). Pointers travel as {@code long} addresses, as for the high-level API
 * ({@link Native}). The entry points that differ by release:
 * <ul>
 *   <li>3.17+ creates a session with {@code fuse_session_new_versioned}, which takes the release
 *       a program was compiled against (3.17.x dereferences it, so it is never NULL); earlier
 *       releases with {@code fuse_session_new}.</li>
 *   <li>{@code fuse_session_loop_mt} resolves to different ABIs (the v1 config struct on 3.10 and
 *       3.11, the config object from 3.12), so the versions are bound by their own names.</li>
 *   <li>{@code fuse_lowlevel_notify_expire_entry} exists from 3.13 (null before); 3.13 to 3.15
 *       take flags ({@code FUSE_LL_EXPIRE_ONLY}), 3.16 dropped them.</li>
 * </ul>
 * Replies may be sent from any thread, once per request; the request is freed by its reply.
 */
public final class LibFuseLowLevel {
    public final boolean versionedNew;
    public final boolean loopConfigObject;

    public final MethodHandle sessionNew;
    public final MethodHandle sessionMount;
    public final MethodHandle sessionUnmount;
    public final MethodHandle sessionDestroy;
    public final MethodHandle sessionExit;
    public final MethodHandle sessionLoopMt;
    public final MethodHandle sessionLoop;

    public final MethodHandle reqCtx;
    public final MethodHandle reqUserdata;
    public final MethodHandle reqInterrupted;
    public final MethodHandle reqGetgroups;

    public final MethodHandle replyErr;
    public final MethodHandle replyNone;
    public final MethodHandle replyEntry;
    public final MethodHandle replyCreate;
    public final MethodHandle replyAttr;
    public final MethodHandle replyReadlink;
    public final MethodHandle replyOpen;
    public final MethodHandle replyWrite;
    public final MethodHandle replyBuf;
    public final MethodHandle replyData;
    public final MethodHandle replyStatfs;
    public final MethodHandle replyXattr;
    public final MethodHandle replyLock;
    public final MethodHandle replyBmap;
    public final MethodHandle replyPoll;
    public final MethodHandle replyLseek;
    public final MethodHandle replyIoctl;
    /** {@code fuse_reply_statx}: 3.18+, else null. */
    public final MethodHandle replyStatx;
    public final MethodHandle addDirentry;
    public final MethodHandle addDirentryPlus;

    public final MethodHandle notifyInvalInode;
    public final MethodHandle notifyInvalEntry;
    /** Null before 3.13; takes a fifth argument, {@code enum fuse_expire_flags}, before 3.16 ({@link #expireTakesFlags}). */
    public final MethodHandle notifyExpireEntry;
    public final boolean expireTakesFlags;
    public final MethodHandle notifyDelete;
    public final MethodHandle notifyStore;
    public final MethodHandle notifyRetrieve;
    /** {@code fuse_lowlevel_notify_increment_epoch}: 3.18+, else null. */
    public final MethodHandle notifyIncrementEpoch;

    LibFuseLowLevel(SymbolLookup lookup, LibFuseVersion version) {
        this.versionedNew = version.atLeast(3, 17, 0);
        this.loopConfigObject = version.atLeast(3, 12, 0);
        this.sessionNew = versionedNew
                ? d(lookup, "fuse_session_new_versioned", FunctionDescriptor.of(C_POINTER, C_POINTER, C_POINTER, C_LONG, C_POINTER, C_POINTER))
                : d(lookup, "fuse_session_new", FunctionDescriptor.of(C_POINTER, C_POINTER, C_POINTER, C_LONG, C_POINTER));
        this.sessionMount = d(lookup, "fuse_session_mount", FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER));
        this.sessionUnmount = d(lookup, "fuse_session_unmount", FunctionDescriptor.ofVoid(C_POINTER));
        this.sessionDestroy = d(lookup, "fuse_session_destroy", FunctionDescriptor.ofVoid(C_POINTER));
        this.sessionExit = d(lookup, "fuse_session_exit", FunctionDescriptor.ofVoid(C_POINTER));
        this.sessionLoop = d(lookup, "fuse_session_loop", FunctionDescriptor.of(C_INT, C_POINTER));
        this.sessionLoopMt = d(lookup, loopConfigObject ? "fuse_session_loop_mt_312" : "fuse_session_loop_mt_32",
                FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER));

        // Read a field of the request: short, never blocks, never calls back into Java.
        this.reqCtx = d(lookup, "fuse_req_ctx", FunctionDescriptor.of(C_POINTER, C_POINTER), Linker.Option.critical(false));
        this.reqUserdata = d(lookup, "fuse_req_userdata", FunctionDescriptor.of(C_POINTER, C_POINTER), Linker.Option.critical(false));
        this.reqInterrupted = d(lookup, "fuse_req_interrupted", FunctionDescriptor.of(C_INT, C_POINTER));
        this.reqGetgroups = d(lookup, "fuse_req_getgroups", FunctionDescriptor.of(C_INT, C_POINTER, C_INT, C_POINTER));

        this.replyErr = d(lookup, "fuse_reply_err", FunctionDescriptor.of(C_INT, C_POINTER, C_INT));
        this.replyNone = d(lookup, "fuse_reply_none", FunctionDescriptor.ofVoid(C_POINTER));
        this.replyEntry = d(lookup, "fuse_reply_entry", FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER));
        this.replyCreate = d(lookup, "fuse_reply_create", FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER));
        this.replyAttr = d(lookup, "fuse_reply_attr", FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_DOUBLE));
        this.replyReadlink = d(lookup, "fuse_reply_readlink", FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER));
        this.replyOpen = d(lookup, "fuse_reply_open", FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER));
        this.replyWrite = d(lookup, "fuse_reply_write", FunctionDescriptor.of(C_INT, C_POINTER, C_LONG));
        this.replyBuf = d(lookup, "fuse_reply_buf", FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_LONG));
        this.replyData = d(lookup, "fuse_reply_data", FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_INT));
        this.replyStatfs = d(lookup, "fuse_reply_statfs", FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER));
        this.replyXattr = d(lookup, "fuse_reply_xattr", FunctionDescriptor.of(C_INT, C_POINTER, C_LONG));
        this.replyLock = d(lookup, "fuse_reply_lock", FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER));
        this.replyBmap = d(lookup, "fuse_reply_bmap", FunctionDescriptor.of(C_INT, C_POINTER, C_LONG));
        this.replyPoll = d(lookup, "fuse_reply_poll", FunctionDescriptor.of(C_INT, C_POINTER, C_INT));
        this.replyLseek = d(lookup, "fuse_reply_lseek", FunctionDescriptor.of(C_INT, C_POINTER, C_LONG));
        this.replyStatx = lookup.find("fuse_reply_statx").isEmpty() ? null
                : d(lookup, "fuse_reply_statx", FunctionDescriptor.of(C_INT, C_POINTER, C_INT, C_POINTER, C_DOUBLE));
        this.replyIoctl = d(lookup, "fuse_reply_ioctl", FunctionDescriptor.of(C_INT, C_POINTER, C_INT, C_POINTER, C_LONG));
        this.addDirentry = d(lookup, "fuse_add_direntry",
                FunctionDescriptor.of(C_LONG, C_POINTER, C_POINTER, C_LONG, C_POINTER, C_POINTER, C_LONG));
        this.addDirentryPlus = d(lookup, "fuse_add_direntry_plus",
                FunctionDescriptor.of(C_LONG, C_POINTER, C_POINTER, C_LONG, C_POINTER, C_POINTER, C_LONG));

        this.notifyInvalInode = d(lookup, "fuse_lowlevel_notify_inval_inode", FunctionDescriptor.of(C_INT, C_POINTER, C_LONG, C_LONG, C_LONG));
        this.notifyInvalEntry = d(lookup, "fuse_lowlevel_notify_inval_entry", FunctionDescriptor.of(C_INT, C_POINTER, C_LONG, C_POINTER, C_LONG));
        this.expireTakesFlags = !version.atLeast(3, 16, 0);
        this.notifyExpireEntry = lookup.find("fuse_lowlevel_notify_expire_entry").isEmpty() ? null : expireTakesFlags
                ? d(lookup, "fuse_lowlevel_notify_expire_entry", FunctionDescriptor.of(C_INT, C_POINTER, C_LONG, C_POINTER, C_LONG, C_INT))
                : d(lookup, "fuse_lowlevel_notify_expire_entry", FunctionDescriptor.of(C_INT, C_POINTER, C_LONG, C_POINTER, C_LONG));
        this.notifyDelete = d(lookup, "fuse_lowlevel_notify_delete",
                FunctionDescriptor.of(C_INT, C_POINTER, C_LONG, C_LONG, C_POINTER, C_LONG));
        this.notifyStore = d(lookup, "fuse_lowlevel_notify_store",
                FunctionDescriptor.of(C_INT, C_POINTER, C_LONG, C_LONG, C_POINTER, C_INT));
        this.notifyRetrieve = d(lookup, "fuse_lowlevel_notify_retrieve",
                FunctionDescriptor.of(C_INT, C_POINTER, C_LONG, C_LONG, C_LONG, C_POINTER));
        this.notifyIncrementEpoch = lookup.find("fuse_lowlevel_notify_increment_epoch").isEmpty() ? null
                : d(lookup, "fuse_lowlevel_notify_increment_epoch", FunctionDescriptor.of(C_INT, C_POINTER));
    }

    private static MethodHandle d(SymbolLookup lookup, String symbol, FunctionDescriptor fd, Linker.Option... options) {
        return LibFuse.downcall(lookup, symbol, fd, options);
    }
}
