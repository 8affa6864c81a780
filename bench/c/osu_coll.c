/* OSU-style collective latency in C, the reference for mpj's allreduce, alltoall, allgather, bcast and barrier
 * benchmarks (samples/.../bench/CollectiveLatency.java): the same timing loop, defaults and table.
 *
 *   osu_coll allreduce|alltoall|allgather|bcast|barrier [-m [MIN:]MAX] [-f] [-i ITERATIONS] [-x WARMUP]
 *
 * Per size (powers of two from MIN, default 4 B, to MAX, default 1 MiB; barrier: none): WARMUP + ITERATIONS calls,
 * each timed alone and followed by a barrier (barriers are timed back to back); 1000 iterations after 200 warm-up
 * calls up to 8 KiB, a tenth of both above. Each rank averages its own times; rank 0 prints the average over ranks,
 * with -f also the minimum, the maximum and the iteration count. Allreduce is MPI_SUM over size/4 floats, bcast
 * from rank 0. Build: mpicc.mpich -O2 -o osu_coll osu_coll.c (or mpicc.openmpi). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LARGE 8192

enum op { ALLREDUCE, ALLTOALL, ALLGATHER, BCAST, BARRIER };
static const char *const names[] = {"allreduce", "alltoall", "allgather", "bcast", "barrier"};
static const char *const titles[] = {"Allreduce", "Alltoall", "Allgather", "Bcast", "Barrier"};

static int usage(int rank, const char *problem) {
    if (rank == 0)
        fprintf(stderr, "osu_coll: %s\nusage: osu_coll allreduce|alltoall|allgather|bcast|barrier "
                "[-m [MIN:]MAX] [-f] [-i ITERATIONS] [-x WARMUP]\n", problem);
    MPI_Finalize();
    return 2;
}

static int number(const char *s, long *out) {
    char *end;
    *out = strtol(s, &end, 10);
    return *s != '\0' && *end == '\0';
}

static void call(enum op op, long size, char *send, char *recv) {
    switch (op) {
    case ALLREDUCE:
        MPI_Allreduce(send, recv, (int) (size / sizeof(float)), MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
        break;
    case ALLTOALL:
        MPI_Alltoall(send, (int) size, MPI_CHAR, recv, (int) size, MPI_CHAR, MPI_COMM_WORLD);
        break;
    case ALLGATHER:
        MPI_Allgather(send, (int) size, MPI_CHAR, recv, (int) size, MPI_CHAR, MPI_COMM_WORLD);
        break;
    case BCAST:
        MPI_Bcast(send, (int) size, MPI_CHAR, 0, MPI_COMM_WORLD);
        break;
    case BARRIER:
        MPI_Barrier(MPI_COMM_WORLD);
        break;
    }
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, np;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (argc < 2) return usage(rank, "name a collective");
    int op = -1;
    for (int k = 0; k <= BARRIER; k++)
        if (!strcmp(argv[1], names[k])) op = k;
    if (op < 0) return usage(rank, "unknown collective");
    int sized = op != BARRIER, full = 0;
    long min = sized ? 4 : 0, max = sized ? 1L << 20 : 0, iters = 1000, warm = 200;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "-f")) {
            full = 1;
        } else if (i + 1 >= argc) {
            return usage(rank, "an option without its value");
        } else if (!strcmp(argv[i], "-m") && sized) {
            char *colon = strchr(argv[++i], ':');
            if (colon) *colon = '\0';
            if (!number(argv[i], colon ? &min : &max) || (colon && !number(colon + 1, &max)))
                return usage(rank, "not a number");
        } else if (!strcmp(argv[i], "-i")) {
            if (!number(argv[++i], &iters)) return usage(rank, "not a number");
        } else if (!strcmp(argv[i], "-x")) {
            if (!number(argv[++i], &warm)) return usage(rank, "not a number");
        } else {
            return usage(rank, "unknown option");
        }
    }
    if ((sized && min < 4) || max < min || max > (1L << 30) || iters < 1 || warm < 0)
        return usage(rank, "sizes 4 <= MIN <= MAX <= 2^30, iterations >= 1, warm-up >= 0");
    if (np < 2) return usage(rank, "needs at least 2 ranks");

    size_t room = (size_t) (max > 0 ? max : 1) * (op == ALLTOALL || op == ALLGATHER ? np : 1);
    char *send = malloc(room), *recv = malloc(room);
    memset(send, 'a', room);
    memset(recv, 0, room);
    if (rank == 0) {
        printf("# OSU MPI-style %s Latency Test\n", titles[op]);
        printf(sized ? "%-10s" : "%s", sized ? "# Size" : "#");
        printf("%18s", "Avg Latency(us)");
        if (full) printf("%18s%18s%18s", "Min Latency(us)", "Max Latency(us)", "Iterations");
        printf("\n");
        fflush(stdout);
    }
    for (long size = min; size <= max; size = size ? size * 2 : 1) {
        long n = size > LARGE ? (iters / 10 > 1 ? iters / 10 : 1) : iters;
        long w = size > LARGE ? warm / 10 : warm;
        double total = 0;
        MPI_Barrier(MPI_COMM_WORLD);
        for (long i = 0; i < w + n; i++) {
            double t0 = MPI_Wtime();
            call(op, size, send, recv);
            double t = MPI_Wtime() - t0;
            if (i >= w) total += t;
            if (sized) MPI_Barrier(MPI_COMM_WORLD);
        }
        double us = total * 1e6 / n, lo, hi, sum;
        MPI_Reduce(&us, &lo, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
        MPI_Reduce(&us, &hi, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        MPI_Reduce(&us, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
        if (rank == 0) {
            if (sized) printf("%-10ld", size); else printf(" ");
            printf("%18.2f", sum / np);
            if (full) printf("%18.2f%18.2f%18ld", lo, hi, n);
            printf("\n");
            fflush(stdout);
        }
        if (!sized) break;
    }
    free(send);
    free(recv);
    MPI_Finalize();
    return 0;
}
