/*
 * The C busy-poll ping-pong that `jwarp bench` measures beside Java's: the floor a program reaches
 * on this kernel's TCP with no runtime at all. One TCP connection over loopback, TCP_NODELAY,
 * non-blocking sockets polled without sleeping (read until the message is whole, write until it
 * is gone). Each message carries the round number in its first 8 bytes (little-endian; shorter
 * messages carry it modulo what fits); the server checks it and echoes, the client checks every echo.
 *
 *   pingpong server                      listens on 127.0.0.1, an ephemeral port; prints "port N"
 *   pingpong client PORT SIZE ROUNDS WARMUP
 *                                        prints "typical_ns p99_ns rounds": one-way time (half the
 *                                        round trip), median and 99th percentile of ROUNDS rounds
 *                                        after WARMUP unmeasured ones
 *
 * Exit status 0 on success; 1 with one line on stderr otherwise; killed by SIGALRM after 10 min.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define END_STAMP UINT64_MAX

static void fail(const char *what) {
    fprintf(stderr, "pingpong: %s: %s\n", what, strerror(errno));
    exit(1);
}

static void tune(int fd) {
    int one = 1;
    if (setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one) < 0) fail("TCP_NODELAY");
    if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) < 0) fail("O_NONBLOCK");
}

/* Busy-polls until all n bytes are read; 0 at the peer's end of stream. */
static int read_fully(int fd, unsigned char *b, size_t n) {
    size_t got = 0;
    while (got < n) {
        ssize_t r = read(fd, b + got, n - got);
        if (r > 0) {
            got += (size_t) r;
        } else if (r == 0) {
            return 0;
        } else if (errno != EAGAIN && errno != EINTR) {
            fail("read");
        }
    }
    return 1;
}

static void write_fully(int fd, const unsigned char *b, size_t n) {
    size_t put = 0;
    while (put < n) {
        ssize_t w = write(fd, b + put, n - put);
        if (w > 0) {
            put += (size_t) w;
        } else if (w < 0 && errno != EAGAIN && errno != EINTR) {
            fail("write");
        }
    }
}

static void put_stamp(unsigned char *b, size_t size, uint64_t stamp) {
    size_t w = size < 8 ? size : 8;
    for (size_t i = 0; i < w; i++) b[i] = (unsigned char) (stamp >> (8 * i));
}

static uint64_t get_stamp(const unsigned char *b, size_t size) {
    size_t w = size < 8 ? size : 8;
    uint64_t s = 0;
    for (size_t i = 0; i < w; i++) s |= (uint64_t) b[i] << (8 * i);
    return s;
}

static uint64_t mask(size_t size) {
    return size >= 8 ? UINT64_MAX : (UINT64_C(1) << (8 * size)) - 1;
}

/* Round r's stamp: never 0 and never the end stamp, whatever the message size. */
static uint64_t stamp_of(uint64_t r, size_t size) {
    return size >= 8 ? r : 1 + (r - 1) % (mask(size) - 1);
}

static int64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t) t.tv_sec * 1000000000 + t.tv_nsec;
}

static int by_value(const void *a, const void *b) {
    int64_t x = *(const int64_t *) a, y = *(const int64_t *) b;
    return (x > y) - (x < y);
}

static int server(void) {
    int l = socket(AF_INET, SOCK_STREAM, 0);
    if (l < 0) fail("socket");
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    if (bind(l, (struct sockaddr *) &a, sizeof a) < 0 || listen(l, 1) < 0) fail("bind/listen");
    socklen_t len = sizeof a;
    if (getsockname(l, (struct sockaddr *) &a, &len) < 0) fail("getsockname");
    printf("port %d\n", ntohs(a.sin_port));
    fflush(stdout);
    int fd = accept(l, NULL, NULL);
    if (fd < 0) fail("accept");
    close(l);
    tune(fd);
    unsigned char head[8];
    if (!read_fully(fd, head, 8)) return 0;       /* the client's message size */
    size_t size = (size_t) get_stamp(head, 8);
    unsigned char *b = calloc(size, 1);
    if (b == NULL) fail("calloc");
    for (uint64_t r = 1;; r++) {
        if (!read_fully(fd, b, size)) return 0;
        uint64_t s = get_stamp(b, size);
        if (s == (END_STAMP & mask(size))) break;
        if (s != stamp_of(r, size)) {
            fprintf(stderr, "pingpong: round %llu: the client's message carries stamp %llu\n",
                    (unsigned long long) r, (unsigned long long) s);
            return 1;
        }
        write_fully(fd, b, size);
    }
    return 0;
}

static int client(int port, size_t size, long rounds, long warmup) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) fail("socket");
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t) port),
                            .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    if (connect(fd, (struct sockaddr *) &a, sizeof a) < 0) fail("connect");
    tune(fd);
    unsigned char head[8];
    put_stamp(head, 8, size);
    write_fully(fd, head, 8);
    unsigned char *out = calloc(size, 1), *in = calloc(size, 1);
    int64_t *rtt = calloc((size_t) rounds, sizeof *rtt);
    if (out == NULL || in == NULL || rtt == NULL) fail("calloc");
    for (long r = 1; r <= warmup + rounds; r++) {
        uint64_t stamp = stamp_of((uint64_t) r, size);
        put_stamp(out, size, stamp);
        int64_t t0 = now_ns();
        write_fully(fd, out, size);
        if (!read_fully(fd, in, size)) {
            fprintf(stderr, "pingpong: the server ended the connection at round %ld\n", r);
            return 1;
        }
        int64_t t1 = now_ns();
        if (get_stamp(in, size) != stamp) {
            fprintf(stderr, "pingpong: round %ld: the echo carries stamp %llu, expected %llu\n", r,
                    (unsigned long long) get_stamp(in, size), (unsigned long long) stamp);
            return 1;
        }
        if (r > warmup) rtt[r - warmup - 1] = t1 - t0;
    }
    put_stamp(out, size, END_STAMP);
    write_fully(fd, out, size);
    qsort(rtt, (size_t) rounds, sizeof *rtt, by_value);
    long p99 = (long) ((rounds * 99 + 99) / 100) - 1;
    printf("%lld %lld %ld\n", (long long) (rtt[rounds / 2] / 2), (long long) (rtt[p99] / 2), rounds);
    close(fd);
    return 0;
}

int main(int argc, char **argv) {
    alarm(600);   /* a peer that hangs ends the run rather than spinning for ever */
    if (argc == 2 && strcmp(argv[1], "server") == 0) return server();
    if (argc == 6 && strcmp(argv[1], "client") == 0) {
        long size = atol(argv[3]), rounds = atol(argv[4]), warmup = atol(argv[5]);
        if (size < 1 || rounds < 1 || warmup < 0) {
            fprintf(stderr, "pingpong: SIZE and ROUNDS must be positive, WARMUP not negative\n");
            return 1;
        }
        return client(atoi(argv[2]), (size_t) size, rounds, warmup);
    }
    fprintf(stderr, "usage: pingpong server | pingpong client PORT SIZE ROUNDS WARMUP\n");
    return 1;
}
