/*
 * The bench tree (see benchfs.c) on libfuse's low-level API: the C reference of the inode API's
 * bench filesystem (fuse-panama-bench's PanamaInodeBenchFs), which has the same logic line for
 * line. Same tree, bytes (o % 251) and behaviour of /w as benchfs.c; what the low-level API
 * changes:
 *
 *   inodes  fixed: 1 /, 2 /small, 3 /big, 4 /data.bin, 5 /w, 6..13 /small/file-0..7,
 *           14..10013 /big/file-00000..09999; from 10014 the files of /w, one per slot of a table,
 *           with a new generation each time a slot is reused. Lookup counts are kept for the /w
 *           files only: a slot is freed once its name is gone and the kernel has forgotten it.
 *   replies timeouts 0 in every entry and attribute reply (kernel caching off, as benchfs.c);
 *           reads are answered straight from the pattern, without a copy; readdirplus answers
 *           each entry with its attributes; opendir, release and the rest are libfuse's own.
 *
 * Usage: benchfs3ll [--no-auto-inval-data] MOUNTPOINT
 *        (foreground; ends on fusermount3 -u or SIGTERM). As benchfs3, it keeps libfuse's default
 *        capabilities unless the flag turns off auto_inval_data, and runs libfuse's multi-threaded
 *        loop with its default configuration, as fuse_main does.
 */
#define FUSE_USE_VERSION 312
#define _FILE_OFFSET_BITS 64
#include <fuse_lowlevel.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define FILE_SIZE 4096
#define DATA_SIZE 536870912LL
#define SMALL_COUNT 8
#define BIG_COUNT 10000
#define NAME_MAX_BYTES 255
/* The kernel reads at most max_pages (256 pages, 1 MiB with libfuse 3's max_write) at a time. */
#define MAX_READ (1 << 20)
#define PATTERN_SIZE (MAX_READ + 251)
#define MAX_SCRATCH 4096

enum { ROOT_INO = 1, SMALL_INO, BIG_INO, DATA_INO, SCRATCH_DIR_INO, FIRST_SMALL_INO };
#define FIRST_BIG_INO (FIRST_SMALL_INO + SMALL_COUNT)
#define FIRST_SCRATCH_INO (FIRST_BIG_INO + BIG_COUNT)

static char pattern[PATTERN_SIZE];
static const char *const root_names[] = {"small", "big", "data.bin", "w"};
static char small_names[SMALL_COUNT][8];
static char big_names[BIG_COUNT][12];

/* A file of /w: data is discarded, the size kept. */
struct scratch {
    char name[NAME_MAX_BYTES + 1];
    long long size;
    uint64_t generation;
    uint64_t lookups; /* entries the kernel was sent, less what it forgot */
    int linked;       /* its name is in /w */
    int used;         /* linked, or still known to the kernel */
};
static struct scratch scratch[MAX_SCRATCH];
static int scratch_end; /* one past the highest used slot */
static pthread_mutex_t scratch_lock = PTHREAD_MUTEX_INITIALIZER;

/* ---- the scratch table; every function here is called holding scratch_lock ---- */

static int scratch_find(const char *name) {
    for (int s = 0; s < scratch_end; s++)
        if (scratch[s].linked && strcmp(scratch[s].name, name) == 0) return s;
    return -1;
}

/* The lowest free slot, now used with a new generation; -1 if the table is full. */
static int scratch_new(const char *name) {
    for (int s = 0; s < MAX_SCRATCH; s++) {
        if (scratch[s].used) continue;
        struct scratch *f = &scratch[s];
        f->used = 1; f->linked = 1; f->size = 0; f->lookups = 0; f->generation++;
        strcpy(f->name, name);
        if (s >= scratch_end) scratch_end = s + 1;
        return s;
    }
    return -1;
}

static void scratch_free_if_unused(int s) {
    struct scratch *f = &scratch[s];
    if (f->linked || f->lookups > 0) return;
    f->used = 0;
    while (scratch_end > 0 && !scratch[scratch_end - 1].used) scratch_end--;
}

static void scratch_forget(int s, uint64_t n) {
    scratch[s].lookups -= n < scratch[s].lookups ? n : scratch[s].lookups;
    scratch_free_if_unused(s);
}

/* The slot of a /w file's inode, used or not; -1 for any other inode. */
static int scratch_slot(fuse_ino_t ino) {
    return ino >= FIRST_SCRATCH_INO && ino < FIRST_SCRATCH_INO + MAX_SCRATCH ? (int) (ino - FIRST_SCRATCH_INO) : -1;
}

/* ---- attributes ---- */

static int tree_file(fuse_ino_t ino) { return ino >= FIRST_SMALL_INO && ino < FIRST_SCRATCH_INO; }

static void fill_scratch(int s, struct stat *st) {
    memset(st, 0, sizeof *st);
    st->st_ino = FIRST_SCRATCH_INO + s; st->st_mode = S_IFREG | 0644; st->st_nlink = scratch[s].linked; st->st_size = scratch[s].size;
}

/* 0, or ENOENT for an inode that is not (or no longer) a file of the tree. */
static int fill_attr(fuse_ino_t ino, struct stat *st) {
    memset(st, 0, sizeof *st);
    st->st_ino = ino;
    if (ino == ROOT_INO || ino == SMALL_INO || ino == BIG_INO) { st->st_mode = S_IFDIR | 0755; st->st_nlink = 2; return 0; }
    if (ino == SCRATCH_DIR_INO) { st->st_mode = S_IFDIR | 0777; st->st_nlink = 2; return 0; }
    if (ino == DATA_INO || tree_file(ino)) {
        st->st_mode = S_IFREG | 0444; st->st_nlink = 1; st->st_size = ino == DATA_INO ? DATA_SIZE : FILE_SIZE; return 0;
    }
    int s = scratch_slot(ino);
    if (s < 0) return ENOENT;
    pthread_mutex_lock(&scratch_lock);
    int rc = scratch[s].used ? 0 : ENOENT;
    if (rc == 0) fill_scratch(s, st);
    pthread_mutex_unlock(&scratch_lock);
    return rc;
}

static void fill_entry(struct fuse_entry_param *e, fuse_ino_t ino, uint64_t generation) {
    e->ino = ino; e->generation = generation; e->attr_timeout = 0; e->entry_timeout = 0;
}

/* ---- lookups ---- */

/* The index of "file-" followed by exactly `digits` digits below `count`; -1 for any other name. */
static long tree_index(const char *name, size_t length, size_t digits, long count) {
    if (length != 5 + digits || strncmp(name, "file-", 5) != 0) return -1;
    long v = 0;
    for (size_t i = 5; i < length; i++) {
        if (name[i] < '0' || name[i] > '9') return -1;
        v = v * 10 + (name[i] - '0');
    }
    return v < count ? v : -1;
}

static void op_lookup(fuse_req_t req, fuse_ino_t parent, const char *name) {
    size_t length = strlen(name);
    if (length > NAME_MAX_BYTES) { fuse_reply_err(req, ENAMETOOLONG); return; }
    fuse_ino_t ino = 0;
    long i;
    if (parent == ROOT_INO) {
        for (int k = 0; k < 4; k++) if (strcmp(name, root_names[k]) == 0) ino = SMALL_INO + k;
    } else if (parent == SMALL_INO) {
        if ((i = tree_index(name, length, 1, SMALL_COUNT)) >= 0) ino = FIRST_SMALL_INO + i;
    } else if (parent == BIG_INO) {
        if ((i = tree_index(name, length, 5, BIG_COUNT)) >= 0) ino = FIRST_BIG_INO + i;
    } else if (parent == SCRATCH_DIR_INO) {
        struct fuse_entry_param e;
        pthread_mutex_lock(&scratch_lock);
        int s = scratch_find(name);
        if (s >= 0) {
            scratch[s].lookups++;
            fill_scratch(s, &e.attr);
            fill_entry(&e, FIRST_SCRATCH_INO + s, scratch[s].generation);
        }
        pthread_mutex_unlock(&scratch_lock);
        if (s < 0) { fuse_reply_err(req, ENOENT); return; }
        if (fuse_reply_entry(req, &e) != 0) { /* the caller gave up: the kernel never counted it */
            pthread_mutex_lock(&scratch_lock);
            scratch_forget(s, 1);
            pthread_mutex_unlock(&scratch_lock);
        }
        return;
    }
    if (ino == 0) { fuse_reply_err(req, ENOENT); return; }
    struct fuse_entry_param e;
    fill_attr(ino, &e.attr);
    fill_entry(&e, ino, 0);
    fuse_reply_entry(req, &e);
}

static void op_forget(fuse_req_t req, fuse_ino_t ino, uint64_t nlookup) {
    int s = scratch_slot(ino);
    if (s >= 0) {
        pthread_mutex_lock(&scratch_lock);
        scratch_forget(s, nlookup);
        pthread_mutex_unlock(&scratch_lock);
    }
    fuse_reply_none(req);
}

static void op_forget_multi(fuse_req_t req, size_t count, struct fuse_forget_data *forgets) {
    pthread_mutex_lock(&scratch_lock);
    for (size_t k = 0; k < count; k++) {
        int s = scratch_slot(forgets[k].ino);
        if (s >= 0) scratch_forget(s, forgets[k].nlookup);
    }
    pthread_mutex_unlock(&scratch_lock);
    fuse_reply_none(req);
}

static void op_getattr(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi) {
    (void) fi;
    struct stat st;
    int rc = fill_attr(ino, &st);
    if (rc) fuse_reply_err(req, rc);
    else fuse_reply_attr(req, &st, 0);
}

/* Truncate in /w; times are accepted and not kept; mode and owner are not supported (as benchfs.c has no chmod, chown). */
static void op_setattr(fuse_req_t req, fuse_ino_t ino, struct stat *attr, int to_set, struct fuse_file_info *fi) {
    (void) fi;
    struct stat st;
    if (fill_attr(ino, &st)) { fuse_reply_err(req, ENOENT); return; }
    if (to_set & (FUSE_SET_ATTR_MODE | FUSE_SET_ATTR_UID | FUSE_SET_ATTR_GID)) { fuse_reply_err(req, ENOSYS); return; }
    if (to_set & FUSE_SET_ATTR_SIZE) {
        int s = scratch_slot(ino);
        if (s < 0) { fuse_reply_err(req, EACCES); return; }
        pthread_mutex_lock(&scratch_lock);
        int rc = scratch[s].used ? 0 : ENOENT;
        if (rc == 0) { scratch[s].size = attr->st_size; fill_scratch(s, &st); }
        pthread_mutex_unlock(&scratch_lock);
        if (rc) { fuse_reply_err(req, rc); return; }
    }
    fuse_reply_attr(req, &st, 0);
}

/* ---- files ---- */

static void op_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi) {
    int s = scratch_slot(ino);
    if (s >= 0) {
        pthread_mutex_lock(&scratch_lock);
        int rc = scratch[s].used ? 0 : ENOENT;
        if (rc == 0 && (fi->flags & O_TRUNC)) scratch[s].size = 0;
        pthread_mutex_unlock(&scratch_lock);
        if (rc) { fuse_reply_err(req, rc); return; }
    } else if (ino != DATA_INO && !tree_file(ino)) {
        fuse_reply_err(req, ino <= SCRATCH_DIR_INO ? EISDIR : ENOENT);
        return;
    }
    fi->fh = 0;
    fuse_reply_open(req, fi);
}

static void op_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off, struct fuse_file_info *fi) {
    (void) fi;
    long long total = ino == DATA_INO ? DATA_SIZE : tree_file(ino) ? FILE_SIZE : -1;
    if (total < 0) {
        if (scratch_slot(ino) >= 0) fuse_reply_buf(req, NULL, 0); /* scratch data is discarded */
        else fuse_reply_err(req, ENOENT);
        return;
    }
    if (off >= total) { fuse_reply_buf(req, NULL, 0); return; }
    size_t n = (long long) size < total - off ? size : (size_t) (total - off);
    if (n > MAX_READ) n = MAX_READ;
    fuse_reply_buf(req, pattern + off % 251, n);
}

static void op_write(fuse_req_t req, fuse_ino_t ino, const char *buf, size_t size, off_t off, struct fuse_file_info *fi) {
    (void) buf; (void) fi;
    int s = scratch_slot(ino);
    if (s < 0) { fuse_reply_err(req, ino < FIRST_SCRATCH_INO ? EACCES : ENOENT); return; }
    pthread_mutex_lock(&scratch_lock);
    int rc = scratch[s].used ? 0 : ENOENT;
    if (rc == 0 && off + (long long) size > scratch[s].size) scratch[s].size = off + size;
    pthread_mutex_unlock(&scratch_lock);
    if (rc) fuse_reply_err(req, rc);
    else fuse_reply_write(req, size);
}

/* In /w only. An existing name is opened again (EEXIST with O_EXCL; emptied with O_TRUNC). */
static void op_create(fuse_req_t req, fuse_ino_t parent, const char *name, mode_t mode, struct fuse_file_info *fi) {
    (void) mode;
    if (parent != SCRATCH_DIR_INO) { fuse_reply_err(req, EACCES); return; }
    if (strlen(name) > NAME_MAX_BYTES) { fuse_reply_err(req, ENAMETOOLONG); return; }
    struct fuse_entry_param e;
    int rc = 0;
    pthread_mutex_lock(&scratch_lock);
    int s = scratch_find(name);
    if (s >= 0 && (fi->flags & O_EXCL)) rc = EEXIST;
    else if (s >= 0 && (fi->flags & O_TRUNC)) scratch[s].size = 0;
    else if (s < 0 && (s = scratch_new(name)) < 0) rc = ENOSPC;
    if (rc == 0) {
        scratch[s].lookups++;
        fill_scratch(s, &e.attr);
        fill_entry(&e, FIRST_SCRATCH_INO + s, scratch[s].generation);
    }
    pthread_mutex_unlock(&scratch_lock);
    if (rc) { fuse_reply_err(req, rc); return; }
    fi->fh = 0;
    if (fuse_reply_create(req, &e, fi) != 0) {
        pthread_mutex_lock(&scratch_lock);
        scratch_forget(s, 1);
        pthread_mutex_unlock(&scratch_lock);
    }
}

static void op_unlink(fuse_req_t req, fuse_ino_t parent, const char *name) {
    if (parent != SCRATCH_DIR_INO) { fuse_reply_err(req, EACCES); return; }
    pthread_mutex_lock(&scratch_lock);
    int s = scratch_find(name);
    if (s >= 0) { scratch[s].linked = 0; scratch_free_if_unused(s); }
    pthread_mutex_unlock(&scratch_lock);
    fuse_reply_err(req, s >= 0 ? 0 : ENOENT);
}

static void op_rename(fuse_req_t req, fuse_ino_t parent, const char *name, fuse_ino_t newparent, const char *newname,
                      unsigned int flags) {
    if (flags) { fuse_reply_err(req, EINVAL); return; }
    if (parent != SCRATCH_DIR_INO || newparent != SCRATCH_DIR_INO) { fuse_reply_err(req, EACCES); return; }
    if (strlen(newname) > NAME_MAX_BYTES) { fuse_reply_err(req, ENAMETOOLONG); return; }
    pthread_mutex_lock(&scratch_lock);
    int s = scratch_find(name);
    if (s >= 0) {
        int old = scratch_find(newname);
        if (old >= 0 && old != s) { scratch[old].linked = 0; scratch_free_if_unused(old); }
        strcpy(scratch[s].name, newname);
    }
    pthread_mutex_unlock(&scratch_lock);
    fuse_reply_err(req, s >= 0 ? 0 : ENOENT);
}

/* ---- directories ---- */

/* This thread's batch of entries, grown to the largest size the kernel asked for. */
static __thread char *batch;
static __thread size_t batch_capacity;

struct listing { fuse_req_t req; char *buf; size_t size, used; int plus; };

static mode_t type_of(fuse_ino_t ino) { return ino <= SCRATCH_DIR_INO && ino != DATA_INO ? S_IFDIR : S_IFREG; }

/*
 * Adds an entry with `st`, which readdirplus needs whole and readdir only for st_ino and
 * st_mode's type; 0 if the batch has no room for it.
 */
static int add(struct listing *l, const char *name, const struct stat *st, uint64_t generation, off_t next) {
    size_t n;
    if (l->plus) {
        struct fuse_entry_param e;
        e.attr = *st;
        fill_entry(&e, st->st_ino, generation);
        n = fuse_add_direntry_plus(l->req, l->buf + l->used, l->size - l->used, name, &e, next);
    } else {
        n = fuse_add_direntry(l->req, l->buf + l->used, l->size - l->used, name, st, next);
    }
    if (n > l->size - l->used) return 0;
    l->used += n;
    return 1;
}

/* An entry of the fixed tree. */
static int add_tree(struct listing *l, const char *name, fuse_ino_t ino, off_t next) {
    struct stat st;
    if (l->plus) fill_attr(ino, &st);
    else { st.st_ino = ino; st.st_mode = type_of(ino); }
    return add(l, name, &st, 0, next);
}

/* Entry k of a directory ("." 0, ".." 1, then its names) has the offset k + 1 of the entry after it. */
static int add_dots(struct listing *l, fuse_ino_t ino, off_t off) {
    if (off < 1 && !add_tree(l, ".", ino, 1)) return 0;
    return off >= 2 || add_tree(l, "..", ROOT_INO, 2);
}

/*
 * The files of /w from offset `off`. With readdirplus each entry taken is one more lookup, taken
 * back if the kernel refuses the batch.
 */
static void list_scratch(struct listing *l, off_t off) {
    struct stat st;
    int taken = 0, first = off - 2 < MAX_SCRATCH ? (off > 2 ? (int) (off - 2) : 0) : MAX_SCRATCH;
    pthread_mutex_lock(&scratch_lock);
    if (add_dots(l, SCRATCH_DIR_INO, off)) {
        for (int s = first; s < scratch_end; s++) {
            if (!scratch[s].linked) continue;
            if (l->plus) fill_scratch(s, &st);
            else { st.st_ino = FIRST_SCRATCH_INO + s; st.st_mode = S_IFREG; }
            if (!add(l, scratch[s].name, &st, scratch[s].generation, s + 3)) break;
            if (l->plus) { scratch[s].lookups++; taken++; }
        }
    }
    if (fuse_reply_buf(l->req, l->buf, l->used) != 0) {
        for (int s = first; taken > 0 && s < scratch_end; s++) {
            if (scratch[s].linked) { scratch_forget(s, 1); taken--; }
        }
    }
    pthread_mutex_unlock(&scratch_lock);
}

static void list(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off, int plus) {
    const char *const *names = NULL;
    char (*small)[8] = NULL, (*big)[12] = NULL;
    fuse_ino_t first = 0;
    long count = 0;
    switch (ino) {
    case ROOT_INO: names = root_names; first = SMALL_INO; count = 4; break;
    case SMALL_INO: small = small_names; first = FIRST_SMALL_INO; count = SMALL_COUNT; break;
    case BIG_INO: big = big_names; first = FIRST_BIG_INO; count = BIG_COUNT; break;
    case SCRATCH_DIR_INO: break;
    default: fuse_reply_err(req, ENOTDIR); return;
    }
    if (batch_capacity < size) {
        free(batch);
        batch_capacity = 0;
        if (!(batch = malloc(size))) { fuse_reply_err(req, ENOMEM); return; }
        batch_capacity = size;
    }
    struct listing l = {req, batch, size, 0, plus};
    if (ino == SCRATCH_DIR_INO) { list_scratch(&l, off); return; }
    if (add_dots(&l, ino, off)) {
        for (long k = off > 2 ? off - 2 : 0; k < count; k++) {
            if (!add_tree(&l, names ? names[k] : small ? small[k] : big[k], first + k, k + 3)) break;
        }
    }
    fuse_reply_buf(req, l.buf, l.used);
}

static void op_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off, struct fuse_file_info *fi) {
    (void) fi;
    list(req, ino, size, off, 0);
}

static void op_readdirplus(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off, struct fuse_file_info *fi) {
    (void) fi;
    list(req, ino, size, off, 1);
}

static int no_auto_inval_data;

static void op_init(void *userdata, struct fuse_conn_info *conn) {
    (void) userdata;
    if (no_auto_inval_data) conn->want &= ~FUSE_CAP_AUTO_INVAL_DATA;
}

static const struct fuse_lowlevel_ops ops = {
    .init = op_init, .lookup = op_lookup, .forget = op_forget, .forget_multi = op_forget_multi,
    .getattr = op_getattr, .setattr = op_setattr, .open = op_open, .read = op_read, .write = op_write,
    .create = op_create, .unlink = op_unlink, .rename = op_rename, .readdir = op_readdir,
    .readdirplus = op_readdirplus,
};

int main(int argc, char *argv[]) {
    int i = 1;
    for (; i < argc - 1; i++) {
        if (!strcmp(argv[i], "--no-auto-inval-data")) { no_auto_inval_data = 1; continue; }
        break;
    }
    if (i != argc - 1) { fprintf(stderr, "usage: %s [--no-auto-inval-data] MOUNTPOINT\n", argv[0]); return 2; }
    for (int k = 0; k < PATTERN_SIZE; k++) pattern[k] = (char) (k % 251);
    for (int k = 0; k < SMALL_COUNT; k++) snprintf(small_names[k], sizeof small_names[k], "file-%d", k);
    for (int k = 0; k < BIG_COUNT; k++) snprintf(big_names[k], sizeof big_names[k], "file-%05d", k);

    char *args_v[] = {argv[0], "-o", "fsname=benchfs", NULL};
    struct fuse_args args = FUSE_ARGS_INIT(3, args_v);
    int rc = 1;
    struct fuse_loop_config *config = fuse_loop_cfg_create(); /* fuse_main's defaults: 10 threads, idle ones kept */
    struct fuse_session *se = config ? fuse_session_new(&args, &ops, sizeof ops, NULL) : NULL;
    if (se == NULL) goto out;
    if (fuse_set_signal_handlers(se) != 0) goto out_destroy;
    if (fuse_session_mount(se, argv[i]) != 0) goto out_signals;
    rc = fuse_session_loop_mt(se, config) < 0;
    fuse_session_unmount(se);
out_signals:
    fuse_remove_signal_handlers(se);
out_destroy:
    fuse_session_destroy(se);
out:
    if (config) fuse_loop_cfg_destroy(config);
    fuse_opt_free_args(&args);
    return rc;
}
