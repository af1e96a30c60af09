/* platform.c - what differs between POSIX and Windows, in one place (see
 * platform.h). Each function has its two halves side by side. */
#if defined(_WIN32)
#define _CRT_RAND_S /* rand_s: the system's random numbers (RtlGenRandom) */
#else
#define _POSIX_C_SOURCE 200809L /* fileno, isatty, fstat, clock_gettime, mmap, ftello */
#define _DEFAULT_SOURCE         /* madvise: glibc's posix_madvise ignores DONTNEED */
#endif

#include "platform.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(_WIN32)
#define WIN32_LEAN_AND_MEAN
#include <windows.h> /* first: shellapi.h needs its types */

#include <fcntl.h>
#include <io.h>
#include <shellapi.h>
#else
#include <fcntl.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

#if defined(_WIN32)
/* UTF-8 <-> UTF-16 for the wide API. NULL when memory runs out or the text
 * is not valid in its encoding. The caller frees. */
static wchar_t *utf8_to_wide(const char *s)
{
    int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s, -1, NULL, 0);
    if (n <= 0)
        return NULL;
    wchar_t *w = malloc((size_t)n * sizeof *w);
    if (w && MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s, -1, w, n) != n) {
        free(w);
        w = NULL;
    }
    return w;
}

static char *wide_to_utf8(const wchar_t *w)
{
    int n = WideCharToMultiByte(CP_UTF8, 0, w, -1, NULL, 0, NULL, NULL);
    if (n <= 0)
        return NULL;
    char *s = malloc((size_t)n);
    if (s && WideCharToMultiByte(CP_UTF8, 0, w, -1, s, n, NULL, NULL) != n) {
        free(s);
        s = NULL;
    }
    return s;
}

static HANDLE console_of(FILE *f)
{
    int fd = _fileno(f);
    if (fd < 0 || !_isatty(fd))
        return INVALID_HANDLE_VALUE;
    HANDLE h = (HANDLE)_get_osfhandle(fd);
    DWORD mode;
    return h != INVALID_HANDLE_VALUE && GetConsoleMode(h, &mode) ? h : INVALID_HANDLE_VALUE;
}
#endif

void cli_plat_random(uint64_t out[2])
{
    /* Unforeseeable when the system's source fails: the clock, the
     * process and where the stack is. */
    const time_t now = time(NULL);
    out[0] = (uint64_t)now * 1000000007u ^ (uint64_t)clock();
    out[1] = (uint64_t)(uintptr_t)(void *)out; /* the caller's stack: where ASLR put it */
#if defined(_WIN32)
    for (unsigned i = 0; i < 4; i++) {
        unsigned int r;
        if (rand_s(&r) == 0)
            out[i / 2] ^= (uint64_t)r << (32 * (i % 2));
    }
#else
    unsigned char bytes[16];
    if (getentropy(bytes, sizeof bytes) == 0)
        for (unsigned i = 0; i < 16; i++)
            out[i / 8] ^= (uint64_t)bytes[i] << (8 * (i % 8));
    out[1] ^= (uint64_t)getpid() << 40;
#endif
}

bool cli_plat_init(int *argc, char ***argv)
{
#if defined(_WIN32)
    (void)_setmode(_fileno(stdin), _O_BINARY);
    (void)_setmode(_fileno(stdout), _O_BINARY);
    (void)_setmode(_fileno(stderr), _O_BINARY); /* messages end in LF too */
    /* The arguments again, as UTF-16 from Windows and then UTF-8: the
     * narrow argv is in the ANSI code page and loses what it cannot show. */
    int n = 0;
    wchar_t **wargv = CommandLineToArgvW(GetCommandLineW(), &n);
    if (wargv == NULL)
        return true; /* keep the narrow argv */
    char **args = calloc((size_t)n + 1, sizeof *args);
    bool ok = args != NULL;
    for (int i = 0; ok && i < n; i++)
        ok = (args[i] = wide_to_utf8(wargv[i])) != NULL;
    LocalFree(wargv);
    if (!ok)
        return false;
    /* Lives as long as the process, as argv does. */
    *argc = n;
    *argv = args;
    return true;
#else
    (void)argc;
    (void)argv;
    signal(SIGPIPE, SIG_IGN); /* a closed pipe is EPIPE, which ends quietly */
    return true;
#endif
}

bool cli_plat_isatty(FILE *f)
{
#if defined(_WIN32)
    int fd = _fileno(f);
    return fd >= 0 && _isatty(fd);
#else
    int fd = fileno(f);
    return fd >= 0 && isatty(fd);
#endif
}

/* $COLUMNS as a width, or 0 when it is not plain digits from 20 to 1000. */
static unsigned columns_from_env(void)
{
    const char *s = getenv("COLUMNS");
    if (s == NULL || *s == '\0')
        return 0;
    unsigned v = 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9' || v > 1000)
            return 0;
        v = v * 10u + (unsigned)(*s - '0');
    }
    return v >= 20 && v <= 1000 ? v : 0;
}

unsigned cli_plat_term_width(FILE *f)
{
    unsigned v = columns_from_env();
    if (v)
        return v;
#if defined(_WIN32)
    HANDLE h = console_of(f);
    CONSOLE_SCREEN_BUFFER_INFO info;
    if (h != INVALID_HANDLE_VALUE && GetConsoleScreenBufferInfo(h, &info)) {
        int cols = info.srWindow.Right - info.srWindow.Left + 1;
        if (cols >= 20)
            return (unsigned)cols;
    }
#else
    struct winsize ws;
    int fd = fileno(f);
    if (fd >= 0 && isatty(fd) && ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20)
        return ws.ws_col;
#endif
    return 80;
}

void cli_plat_color_enable(FILE *f)
{
#if defined(_WIN32)
    HANDLE h = console_of(f);
    DWORD mode;
    if (h != INVALID_HANDLE_VALUE && GetConsoleMode(h, &mode))
        (void)SetConsoleMode(h, mode | ENABLE_VIRTUAL_TERMINAL_PROCESSING);
#else
    (void)f;
#endif
}

bool cli_plat_color_auto(FILE *f)
{
    const char *no = getenv("NO_COLOR");
    if ((no != NULL && *no != '\0') || !cli_plat_isatty(f))
        return false;
#if defined(_WIN32)
    /* Windows Terminal and conhost since Windows 10 take escape sequences
     * once asked; an older console refuses, and gets no colour. */
    HANDLE h = console_of(f);
    DWORD mode;
    if (h == INVALID_HANDLE_VALUE || !GetConsoleMode(h, &mode))
        return false;
    return (mode & ENABLE_VIRTUAL_TERMINAL_PROCESSING) ||
           SetConsoleMode(h, mode | ENABLE_VIRTUAL_TERMINAL_PROCESSING);
#else
    return true;
#endif
}

FILE *cli_plat_open_read(const char *path, int *err)
{
#if defined(_WIN32)
    wchar_t *w = utf8_to_wide(path);
    if (w == NULL) {
        *err = EILSEQ; /* not UTF-8 (or no memory for its UTF-16) */
        return NULL;
    }
    DWORD attr = GetFileAttributesW(w);
    if (attr != INVALID_FILE_ATTRIBUTES && (attr & FILE_ATTRIBUTE_DIRECTORY)) {
        free(w);
        *err = EISDIR; /* _wfopen would say EACCES */
        return NULL;
    }
    FILE *f = _wfopen(w, L"rb");
    *err = f ? 0 : errno;
    free(w);
    return f;
#else
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        *err = errno;
        return NULL;
    }
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f);
        *err = EISDIR;
        return NULL;
    }
    *err = 0;
    return f;
#endif
}

/* Input that cannot be mapped (a pipe, a FIFO, a device, a stream), read
 * from f into m after the head bytes already taken from it, never more than
 * cap allows: cap(ctx, bytes so far) is asked again each time the buffer
 * grows, and the buffer never holds more than cap + 1 bytes. Past the cap,
 * reading stops: m holds the first bytes and m->truncated is set. The one
 * way input is read when it is not mapped. */
static bool read_bounded(struct plat_map *m, const unsigned char *head, size_t head_len,
                         plat_cap *cap, void *ctx, FILE *f, int *err)
{
    unsigned char *buf = NULL;
    size_t len = 0, size = 0;
    for (;;) {
        if (len == size) {
            size_t limit = cap(ctx, buf, len);
            if (len > limit) {
                m->truncated = true;
                break;
            }
            size_t grown = size < 32768 ? 65536 : size > SIZE_MAX / 2 ? SIZE_MAX : size * 2;
            if (grown < head_len)
                grown = head_len;
            if (limit < SIZE_MAX && grown - 1 > limit)
                grown = limit + 1; /* one byte past the cap says more exists */
            unsigned char *b = grown > size ? realloc(buf, grown) : NULL;
            if (b == NULL) {
                free(buf);
                *err = ENOMEM;
                return false;
            }
            buf = b;
            size = grown;
        }
        size_t n;
        if (len < head_len) { /* the bytes the caller read first */
            n = head_len - len < size - len ? head_len - len : size - len;
            memcpy(buf + len, head + len, n);
        } else {
            n = fread(buf + len, 1, size - len, f);
            if (n == 0 && ferror(f)) {
                free(buf);
                *err = errno ? errno : EIO;
                return false;
            }
        }
        if (n == 0) {
            if (len > cap(ctx, buf, len))
                m->truncated = true;
            break;
        }
        len += n;
    }
    if (m->truncated) {
        size_t limit = cap(ctx, buf, len);
        if (limit < len)
            len = limit; /* the bytes within the cap, for the caller to look at */
    }
    m->data = len ? buf : NULL;
    m->base = buf;
    m->len = len;
    m->read = true;
    return true;
}

#if defined(_WIN32)
static int errno_of_last_error(void)
{
    switch (GetLastError()) {
    case ERROR_FILE_NOT_FOUND:
    case ERROR_PATH_NOT_FOUND:
    case ERROR_INVALID_NAME:
        return ENOENT;
    case ERROR_ACCESS_DENIED:
    case ERROR_SHARING_VIOLATION:
        return EACCES;
    case ERROR_NOT_ENOUGH_MEMORY:
    case ERROR_OUTOFMEMORY:
        return ENOMEM;
    default:
        return EIO;
    }
}
#endif

static void map_clear(struct plat_map *m)
{
    m->data = NULL;
    m->base = NULL;
    m->len = 0;
    m->read = false;
    m->truncated = false;
    m->released = 0;
}

/* Maps f whole when it is a regular file of at least one byte: 1 mapped,
 * 0 not a regular file (or empty: /proc's), -1 failed (*err set). */
static int map_regular(FILE *f, struct plat_map *m, int *err)
{
#if defined(_WIN32)
    HANDLE h = (HANDLE)_get_osfhandle(_fileno(f));
    if (h == INVALID_HANDLE_VALUE || GetFileType(h) != FILE_TYPE_DISK)
        return 0;
    LARGE_INTEGER size;
    if (!GetFileSizeEx(h, &size)) {
        *err = errno_of_last_error();
        return -1;
    }
    if (size.QuadPart <= 0)
        return 0;
    if ((unsigned long long)size.QuadPart > (unsigned long long)SIZE_MAX) {
        *err = EFBIG;
        return -1;
    }
    /* The view stays valid once the mapping's handle is closed. */
    HANDLE map = CreateFileMappingW(h, NULL, PAGE_READONLY, 0, 0, NULL);
    void *view = map ? MapViewOfFile(map, FILE_MAP_READ, 0, 0, 0) : NULL;
    if (view == NULL)
        *err = errno_of_last_error();
    if (map)
        CloseHandle(map);
    if (view == NULL)
        return -1;
    m->data = view;
    m->base = view;
    m->len = (size_t)size.QuadPart;
    return 1;
#else
    struct stat st;
    const int fd = fileno(f);
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0)
        return 0;
    if ((unsigned long long)st.st_size > (unsigned long long)SIZE_MAX) {
        *err = EFBIG;
        return -1;
    }
    void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
        *err = errno;
        return -1;
    }
    /* Metadata is read where it lies between weights that are skipped: no
     * read-ahead, or their pages fill the memory. */
    (void)madvise(p, (size_t)st.st_size, MADV_RANDOM);
    m->data = p;
    m->base = p;
    m->len = (size_t)st.st_size;
    return 1;
#endif
}

bool cli_plat_map_open(FILE *f, bool at_start, const unsigned char *head, size_t head_len,
                       plat_cap *cap, void *ctx, struct plat_map *m, int *err)
{
    map_clear(m);
    *err = 0;
    if (at_start) {
        const int r = map_regular(f, m, err);
        if (r != 0)
            return r > 0;
    }
    return read_bounded(m, head, head_len, cap, ctx, f, err);
}

/* cap for cli_plat_map_file: the plain function it is handed. */
static size_t plain_cap(void *ctx, const unsigned char *data, size_t len)
{
    size_t (*cap)(const unsigned char *, size_t) = *(size_t(**)(const unsigned char *, size_t))ctx;
    return cap(data, len);
}

bool cli_plat_map_file(const char *path, size_t (*cap)(const unsigned char *, size_t),
                       struct plat_map *m, int *err)
{
    map_clear(m);
    FILE *f = cli_plat_open_read(path, err);
    if (f == NULL)
        return false;
    const bool ok = cli_plat_map_open(f, true, NULL, 0, plain_cap, &cap, m, err);
    fclose(f);
    return ok;
}

void cli_plat_unmap_file(struct plat_map *m)
{
    if (m->read) {
        free(m->base);
    } else if (m->base) {
#if defined(_WIN32)
        UnmapViewOfFile(m->base);
#else
        munmap(m->base, m->len);
#endif
    }
    m->data = NULL;
    m->base = NULL;
    m->len = 0;
    m->read = false;
}

void cli_plat_map_release(struct plat_map *m, size_t upto)
{
#if defined(_WIN32)
    (void)m;
    (void)upto;
#else
    if (m->read || m->base == NULL || upto > m->len)
        return;
    if (upto < m->released)
        m->released = 0; /* a new pass from the start */
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    const size_t from = m->released, to = upto / page * page;
    if (to <= from || to - from < ((size_t)1 << 20))
        return;
    (void)madvise((char *)m->base + from, to - from, MADV_DONTNEED);
    m->released = to;
#endif
}

double cli_plat_seconds(void)
{
#if defined(_WIN32)
    LARGE_INTEGER now, freq;
    QueryPerformanceCounter(&now);
    QueryPerformanceFrequency(&freq);
    return (double)now.QuadPart / (double)freq.QuadPart;
#else
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
#endif
}

bool cli_plat_closed_pipe(FILE *f, int err)
{
#if defined(_WIN32)
    /* Windows fails a write to a pipe whose reader went away with
     * ERROR_NO_DATA (Wine: ERROR_PIPE_NOT_CONNECTED), which the C library
     * reports as EINVAL, and by the time it returns the system's last error
     * may be cleared; ERROR_BROKEN_PIPE it reports as EPIPE. A write of
     * valid bytes to a pipe fails for no other reason, so EINVAL from a
     * pipe is taken as the reader's going. */
    if (err == EPIPE)
        return true;
    int fd = _fileno(f);
    HANDLE h = fd >= 0 ? (HANDLE)_get_osfhandle(fd) : INVALID_HANDLE_VALUE;
    return err == EINVAL && h != INVALID_HANDLE_VALUE && GetFileType(h) == FILE_TYPE_PIPE;
#else
    (void)f;
    return err == EPIPE;
#endif
}

bool cli_drain(struct outbuf *out, struct cli_error *e)
{
    if (cli_ob_oom_seen()) /* some text of this chunk may be missing: write none */
        return cli_fail(e, CLI_E_OUT_OF_MEMORY, NULL, NULL, "out of memory");
    errno = 0;
    bool ok = cli_ob_flush_to(out, out->sink);
    int err = errno;
    bool closed = !ok && cli_plat_closed_pipe(out->sink, err);
    cli_ob_reset(out);
    if (ok)
        return true;
    cli_fail(e, CLI_E_IO_ERROR, NULL, NULL, "write error: %s",
             out->failed ? "out of memory" : strerror(err ? err : EIO));
    e->exit_code = closed ? CLI_EXIT_OK : CLI_EXIT_IO; /* a closed pipe is quiet */
    e->stdout_failed = true;
    return false;
}
