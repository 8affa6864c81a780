/* The C side of mpj's msgrate and storm samples, with the same loops and tables.
 * Usage: msgrate mr [size=8] [iters=100] [warmup=10]   osu_mbw_mr: pairs r -> r + np/2, windows of 64 Isends
 *        msgrate storm [count=600000] [sleep_ms=2000]  COUNT 8-byte Sends into rank 1 while it sleeps
 * Prints "# Size  MB/s  Messages/s" or "# Messages  Receive (s)  Send (s)" and one row. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define WINDOW 64

static void message_rate(int rank, int np, int size, int iters, int warm) {
    int pairs = np / 2, sender = rank < pairs, receiver = rank >= pairs && rank < 2 * pairs;
    int peer = sender ? rank + pairs : rank - pairs;
    char *buf = calloc(size > 0 ? size : 1, 1), ack[4] = {0};
    MPI_Request req[WINDOW];
    double t0 = 0, rate, total;
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < iters + warm; i++) {
        if (i == warm) t0 = MPI_Wtime();
        if (sender) {
            for (int k = 0; k < WINDOW; k++) MPI_Isend(buf, size, MPI_CHAR, peer, 2, MPI_COMM_WORLD, &req[k]);
            MPI_Waitall(WINDOW, req, MPI_STATUSES_IGNORE);
            MPI_Recv(ack, 4, MPI_CHAR, peer, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (receiver) {
            for (int k = 0; k < WINDOW; k++) MPI_Irecv(buf, size, MPI_CHAR, peer, 2, MPI_COMM_WORLD, &req[k]);
            MPI_Waitall(WINDOW, req, MPI_STATUSES_IGNORE);
            MPI_Send(ack, 4, MPI_CHAR, peer, 3, MPI_COMM_WORLD);
        }
    }
    rate = sender ? (double)WINDOW * iters / (MPI_Wtime() - t0) : 0;
    MPI_Reduce(&rate, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) printf("# Size  MB/s  Messages/s\n%-8d %.2f %.2f\n", size, total * size / 1e6, total);
    free(buf);
}

static void storm(int rank, long count, long sleep_ms) {
    long msg;
    double recv_s = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        double t0 = MPI_Wtime();
        for (long i = 0; i < count; i++) { msg = i; MPI_Send(&msg, 1, MPI_LONG, 1, 4, MPI_COMM_WORLD); }
        double send_s = MPI_Wtime() - t0;
        MPI_Recv(&recv_s, 1, MPI_DOUBLE, 1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("# Messages  Receive (s)  Send (s)\n%ld %.3f %.3f\n", count, recv_s, send_s);
    } else if (rank == 1) {
        struct timespec ts = {sleep_ms / 1000, (sleep_ms % 1000) * 1000000L};
        nanosleep(&ts, NULL);
        double t0 = MPI_Wtime();
        for (long i = 0; i < count; i++) {
            MPI_Recv(&msg, 1, MPI_LONG, 0, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (msg != i) { fprintf(stderr, "message %ld carried %ld\n", i, msg); MPI_Abort(MPI_COMM_WORLD, 1); }
        }
        recv_s = MPI_Wtime() - t0;
        MPI_Send(&recv_s, 1, MPI_DOUBLE, 0, 5, MPI_COMM_WORLD);
    }
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, np;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    const char *mode = argc > 1 ? argv[1] : "mr";
    if (!strcmp(mode, "storm"))
        storm(rank, argc > 2 ? atol(argv[2]) : 600000L, argc > 3 ? atol(argv[3]) : 2000L);
    else
        message_rate(rank, np, argc > 2 ? atoi(argv[2]) : 8, argc > 3 ? atoi(argv[3]) : 100,
                     argc > 4 ? atoi(argv[4]) : 10);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
