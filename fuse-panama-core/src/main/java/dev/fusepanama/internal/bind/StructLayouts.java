package dev.fusepanama.internal.bind;

import dev.fusepanama.libc.structs.flock;
import dev.fusepanama.libc.structs.stat;
import dev.fusepanama.libc.structs.statvfs;
import dev.fusepanama.libc.structs.statx;
import dev.fusepanama.libc.structs.timespec;
import java.lang.foreign.StructLayout;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The struct layouts of one libfuse release, chosen once from its version when the library is
 * loaded: what a program compiled against that release's headers would use. Each binding class
 * documents how its struct changed between releases; LayoutTest compares every layout here with
 * the C compiler's, against the headers of the release actually loaded.
 */
public record StructLayouts(StructLayout fuseConfig, StructLayout fileInfo, fuse_file_info.Bits fileInfoBits,
                            StructLayout connInfo, StructLayout buf, StructLayout bufvec, StructLayout operations,
                            StructLayout lowlevelOps) {

    public static StructLayouts of(LibFuseVersion version) {
        StructLayout buf = fuse_buf.layout(version);
        return new StructLayouts(
                fuse_config.layout(version),
                fuse_file_info.layout(version),
                fuse_file_info.bits(version),
                fuse_conn_info.layout(version),
                buf,
                fuse_bufvec.layout(buf),
                fuse_operations.layout(version),
                fuse_lowlevel_ops.layout(version));
    }

    /** {@code sizeof(struct fuse_buf)}: the stride of a vector's buffers. */
    public long bufSize() {
        return buf.byteSize();
    }

    /** {@code sizeof(struct fuse_bufvec)} with its one inline buffer. */
    public long bufvecSize() {
        return bufvec.byteSize();
    }

    /** Every struct the bindings map, by C name, the release-independent ones included. */
    public Map<String, StructLayout> all() {
        Map<String, StructLayout> all = new LinkedHashMap<>();
        all.put("timespec", timespec.LAYOUT);
        all.put("stat", stat.LAYOUT);
        all.put("statx", statx.LAYOUT);
        all.put("statvfs", statvfs.LAYOUT);
        all.put("flock", flock.LAYOUT);
        all.put("fuse_file_info", fileInfo);
        all.put("fuse_conn_info", connInfo);
        all.put("fuse_config", fuseConfig);
        all.put("fuse_context", fuse_context.LAYOUT);
        all.put("fuse_buf", buf);
        all.put("fuse_bufvec", bufvec);
        all.put("fuse_args", fuse_args.LAYOUT);
        all.put("fuse_loop_config_v1", fuse_loop_config_v1.LAYOUT);
        all.put("fuse_operations", operations);
        all.put("fuse_lowlevel_ops", lowlevelOps);
        all.put("fuse_entry_param", fuse_entry_param.LAYOUT);
        all.put("fuse_ctx", fuse_ctx.LAYOUT);
        all.put("fuse_forget_data", fuse_forget_data.LAYOUT);
        return all;
    }
}
