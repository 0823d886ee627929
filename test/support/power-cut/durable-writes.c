/*
 * A disk that keeps only what was synced, for the power-cut tests (test/adapters/sql/power-cut.test.ts).
 *
 * Loaded with LD_PRELOAD into a registry process. Every write to a file under POWER_CUT_DIR is
 * remembered as a range (or a truncation), in order; fsync or fdatasync of that file, by any
 * descriptor, first syncs for real, then replays those ranges from the file into
 * `<file>.durable`. So at any moment `<file>.durable` holds exactly what the file held at its
 * last sync: what a power cut leaves when the OS cache loses everything not yet synced (the
 * worst case the kernel allows; a real disk may keep more, never less). After kill -9 the
 * test puts the .durable files in place of the files and opens the database.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#define MAX_FD 4096
#define MAX_FILES 32
#define MAX_OPS 65536

struct op { off_t off; off_t len; int truncate; };
struct file { char path[1024]; struct op ops[MAX_OPS]; int n; };

static struct file files[MAX_FILES];
static int nfiles;
static int watched_fd[MAX_FD];  /* 1 + index into files, or 0 */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static const char *watched_dir(void) {
  static const char *dir;
  static int read;
  if (!read) { dir = getenv("POWER_CUT_DIR"); read = 1; }
  return dir;
}

/* Files of the database itself: not the -shm index (never durable, rebuilt on open), not our copies. */
static int is_watched(const char *path) {
  const char *dir = watched_dir();
  if (!dir || strncmp(path, dir, strlen(dir)) != 0) return 0;
  return strstr(path, ".durable") == NULL && strstr(path, "-shm") == NULL && strstr(path, "-journal") == NULL;
}

static void remember_fd(int fd, const char *path) {
  if (fd < 0 || fd >= MAX_FD) return;
  pthread_mutex_lock(&lock);
  watched_fd[fd] = 0;
  if (path && is_watched(path)) {
    int i;
    for (i = 0; i < nfiles && strcmp(files[i].path, path) != 0; i++) {}
    if (i == nfiles && nfiles < MAX_FILES) { snprintf(files[nfiles].path, sizeof files[nfiles].path, "%s", path); files[nfiles].n = 0; nfiles++; }
    if (i < nfiles) watched_fd[fd] = i + 1;
  }
  pthread_mutex_unlock(&lock);
}

static void note(int fd, off_t off, off_t len, int truncate) {
  if (fd < 0 || fd >= MAX_FD) return;
  pthread_mutex_lock(&lock);
  int i = watched_fd[fd] - 1;
  if (i >= 0) {
    struct file *f = &files[i];
    struct op *last = f->n > 0 ? &f->ops[f->n - 1] : NULL;
    if (!truncate && last && !last->truncate && last->off + last->len == off) last->len += len;
    else if (f->n < MAX_OPS) f->ops[f->n++] = (struct op){ off, len, truncate };
    else { fprintf(stderr, "durable-writes: too many writes between syncs of %s\n", f->path); abort(); }
  }
  pthread_mutex_unlock(&lock);
}

#define REAL(name) static __typeof__(name) *real_##name; if (!real_##name) real_##name = (__typeof__(name) *)dlsym(RTLD_NEXT, #name)

static int open_mode(int flags, va_list ap) { return (flags & (O_CREAT | O_TMPFILE)) ? va_arg(ap, int) : 0; }

int open(const char *path, int flags, ...) {
  REAL(open);
  va_list ap; va_start(ap, flags); int mode = open_mode(flags, ap); va_end(ap);
  int fd = real_open(path, flags, mode);
  if (fd >= 0) remember_fd(fd, path);
  return fd;
}
int open64(const char *path, int flags, ...) {
  REAL(open64);
  va_list ap; va_start(ap, flags); int mode = open_mode(flags, ap); va_end(ap);
  int fd = real_open64(path, flags, mode);
  if (fd >= 0) remember_fd(fd, path);
  return fd;
}
int close(int fd) {
  REAL(close);
  remember_fd(fd, NULL);
  return real_close(fd);
}

ssize_t pwrite(int fd, const void *buf, size_t n, off_t off) {
  REAL(pwrite);
  ssize_t r = real_pwrite(fd, buf, n, off);
  if (r > 0) note(fd, off, r, 0);
  return r;
}
ssize_t pwrite64(int fd, const void *buf, size_t n, off_t off) {
  REAL(pwrite64);
  ssize_t r = real_pwrite64(fd, buf, n, off);
  if (r > 0) note(fd, off, r, 0);
  return r;
}
ssize_t write(int fd, const void *buf, size_t n) {
  REAL(write);
  off_t at = (fd >= 0 && fd < MAX_FD && watched_fd[fd]) ? lseek(fd, 0, SEEK_CUR) : -1;
  ssize_t r = real_write(fd, buf, n);
  if (r > 0 && at >= 0) note(fd, at, r, 0);
  return r;
}
int ftruncate(int fd, off_t len) {
  REAL(ftruncate);
  int r = real_ftruncate(fd, len);
  if (r == 0) note(fd, len, 0, 1);
  return r;
}
int ftruncate64(int fd, off_t len) {
  REAL(ftruncate64);
  int r = real_ftruncate64(fd, len);
  if (r == 0) note(fd, len, 0, 1);
  return r;
}

/* After a real sync: the synced file's remembered changes, replayed into its .durable copy. */
static void make_durable(int fd) {
  if (fd < 0 || fd >= MAX_FD) return;
  pthread_mutex_lock(&lock);
  int i = watched_fd[fd] - 1;
  if (i >= 0) {
    REAL(pread);
    REAL(pwrite);
    REAL(open);
    REAL(close);
    REAL(ftruncate);
    REAL(fsync);
    struct file *f = &files[i];
    char copy[1100];
    snprintf(copy, sizeof copy, "%s.durable", f->path);
    int out = real_open(copy, O_RDWR | O_CREAT, 0600);
    char buf[65536];
    for (int k = 0; out >= 0 && k < f->n; k++) {
      struct op o = f->ops[k];
      if (o.truncate) { real_ftruncate(out, o.off); continue; }
      for (off_t done = 0; done < o.len;) {
        size_t want = (size_t)(o.len - done) < sizeof buf ? (size_t)(o.len - done) : sizeof buf;
        ssize_t got = real_pread(fd, buf, want, o.off + done);
        if (got <= 0) break; /* truncated since: a later op says so */
        real_pwrite(out, buf, (size_t)got, o.off + done);
        done += got;
      }
    }
    if (out >= 0) { real_fsync(out); real_close(out); }
    f->n = 0;
  }
  pthread_mutex_unlock(&lock);
}

int fsync(int fd) {
  REAL(fsync);
  int r = real_fsync(fd);
  if (r == 0) make_durable(fd);
  return r;
}
int fdatasync(int fd) {
  REAL(fdatasync);
  int r = real_fdatasync(fd);
  if (r == 0) make_durable(fd);
  return r;
}
