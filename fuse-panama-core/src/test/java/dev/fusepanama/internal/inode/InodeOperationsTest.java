package dev.fusepanama.internal.inode;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.fusepanama.inode.EntryReply;
import dev.fusepanama.inode.InodeFileSystem;
import dev.fusepanama.inode.Name;
import dev.fusepanama.inode.Request;
import dev.fusepanama.internal.bind.Native;
import dev.fusepanama.internal.bind.fuse_lowlevel_ops;
import dev.fusepanama.internal.dispatch.Operation;
import java.lang.foreign.FunctionDescriptor;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The inode operation table is derived, as the path API's, from the binding, InodeUpcalls and InodeFileSystem. */
class InodeOperationsTest {

    @Test
    void everySlotIsServed() {
        List<String> slots = fuse_lowlevel_ops.LAYOUT_318.memberLayouts().stream().map(l -> l.name().orElseThrow()).toList();
        List<String> served = InodeUpcalls.OPERATIONS.all().stream().map(Operation::cName).toList();
        assertEquals(slots, served, "every slot of libfuse 3.18's table, in struct order");
        assertEquals(46, served.size());
    }

    @Test
    void theCSignatureFollowsTheUpcallsJavaSignature() {
        // void (*lookup)(fuse_req_t req, fuse_ino_t parent, const char *name)
        assertEquals(FunctionDescriptor.ofVoid(Native.C_POINTER, Native.C_LONG, Native.C_POINTER), descriptor("lookup"));
        // void (*setattr)(fuse_req_t, fuse_ino_t, struct stat *, int to_set, struct fuse_file_info *)
        assertEquals(FunctionDescriptor.ofVoid(Native.C_POINTER, Native.C_LONG, Native.C_POINTER, Native.C_INT, Native.C_POINTER),
                descriptor("setattr"));
        // void (*rename)(fuse_req_t, fuse_ino_t parent, const char *name, fuse_ino_t newparent, const char *newname, unsigned int flags)
        assertEquals(FunctionDescriptor.ofVoid(Native.C_POINTER, Native.C_LONG, Native.C_POINTER, Native.C_LONG, Native.C_POINTER,
                Native.C_INT), descriptor("rename"));
        // void (*ioctl)(fuse_req_t, fuse_ino_t, unsigned int cmd, void *arg, struct fuse_file_info *, unsigned flags,
        //               const void *in_buf, size_t in_bufsz, size_t out_bufsz)
        assertEquals(FunctionDescriptor.ofVoid(Native.C_POINTER, Native.C_LONG, Native.C_INT, Native.C_LONG, Native.C_POINTER,
                Native.C_INT, Native.C_LONG, Native.C_LONG, Native.C_LONG), descriptor("ioctl"));
        // void (*retrieve_reply)(fuse_req_t, void *cookie, fuse_ino_t, off_t offset, struct fuse_bufvec *bufv)
        assertEquals(FunctionDescriptor.ofVoid(Native.C_POINTER, Native.C_LONG, Native.C_LONG, Native.C_LONG, Native.C_LONG),
                descriptor("retrieve_reply"));
        // void (*copy_file_range)(fuse_req_t, fuse_ino_t, off_t, struct fuse_file_info *, fuse_ino_t, off_t,
        //                         struct fuse_file_info *, size_t len, int flags)
        assertEquals(FunctionDescriptor.ofVoid(Native.C_POINTER, Native.C_LONG, Native.C_LONG, Native.C_POINTER, Native.C_LONG,
                Native.C_LONG, Native.C_POINTER, Native.C_LONG, Native.C_INT), descriptor("copy_file_range"));
    }

    private static FunctionDescriptor descriptor(String slot) {
        return InodeUpcalls.OPERATIONS.all().stream().filter(op -> op.cName().equals(slot)).findFirst().orElseThrow().descriptor();
    }

    @Test
    void onlyWhatAClassOverridesIsRegisteredWithInitAndTheBindingsOwnAlways() {
        class Lookups implements InodeFileSystem {
            @Override
            public void lookup(Request request, long parent, Name name, EntryReply reply) {}

            @Override
            public void forget(long ino, long lookups) {}
        }
        assertEquals(List.of("init", "lookup", "forget", "retrieve_reply", "forget_multi"),
                InodeUpcalls.OPERATIONS.implementedBy(Lookups.class).stream().map(Operation::cName).collect(Collectors.toList()),
                "the kernel's batched forgets reach forget too; retrieve_reply answers InodeMount.retrieve");
        assertEquals(List.of("init", "retrieve_reply"), InodeUpcalls.OPERATIONS.implementedBy(InodeFileSystem.class.cast(new InodeFileSystem() {}).getClass())
                .stream().map(Operation::cName).toList());
    }

    @Test
    void onlyOperationsWithARequestAnswerThroughAReply() {
        for (Operation op : InodeUpcalls.OPERATIONS.all()) {
            boolean none = List.of("init", "destroy", "forget", "forget_multi", "retrieve_reply").contains(op.cName());
            assertEquals(!none, InodeUpcalls.answersThroughReply(op), op.cName());
        }
    }
}
