/*
 * stencil3d.c: the 3D 7-point stencil kernel of mpj's `stencil3d` sample, in C, so that the two can be run and
 * timed side by side (bench/apps-side-by-side). Same grid, same order of operations, same output line:
 *
 *   mpiexec -n NP ./stencil3d N ITERS [periodic=1]
 *
 * Every rank owns an N^3 block with one ghost layer, at ((i*(N+2)+j)*(N+2)+k), k fastest; the process grid comes
 * from MPI_Dims_create(np, 3) and MPI_Cart_create(reorder = 0); dimension 0 is x (i), 1 is y (j), 2 is z (k).
 * Initial value at global 0-based (gx, gy, gz): ((7 gx + 13 gy + 17 gz) % 101) / 100. Each iteration packs the 6
 * faces, posts 6 MPI_Irecv (from direction dir with tag dir^1), then 6 MPI_Isend (towards direction dir with tag
 * dir; 0 = -x, 1 = +x, 2 = -y, 3 = +y, 4 = -z, 5 = +z), waits for all 12, unpacks into the ghosts, updates every
 * interior point with s = ((((u[i-1]+u[i+1])+u[j-1])+u[j+1])+u[k-1])+u[k+1], unew = 0.4 u + 0.1 s, in i, j, k
 * ascending order, and reduces the sum of (unew - u)^2 with MPI_Allreduce. With periodic=0 the ghosts outside the
 * domain stay 0.
 *
 * Build: mpicc.mpich -O2 -o stencil3d stencil3d.c -lm   (likewise mpicc.openmpi)
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int n;          /* interior points per side */
    long sj, si;    /* strides of j and i (k's is 1) */
    double *u, *unew;
} block_t;

static long idx(const block_t *b, int i, int j, int k) { return i * b->si + j * b->sj + k; }

static void usage_exit(int rank, const char *why)
{
    if (rank == 0) {
        fprintf(stderr, "stencil3d: %s\nusage: stencil3d N ITERS [periodic=1]   (each rank owns an N^3 block)\n", why);
    }
    MPI_Finalize();
    exit(2);
}

static int parse_int(const char *s, int *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v < 0 || v > 1000000000L) {
        return 0;
    }
    *out = (int) v;
    return 1;
}

/* Copies the face towards dir between the block and buf: the interior layer (pack) or the ghost layer (unpack). */
static void copy_face(block_t *b, int dir, double *buf, int into_ghosts)
{
    int n = b->n, d = dir >> 1, high = dir & 1;
    int layer = into_ghosts ? (high ? n + 1 : 0) : (high ? n : 1);
    long outer_stride, inner_stride, base;
    switch (d) {
    case 0: outer_stride = b->sj; inner_stride = 1; base = idx(b, layer, 1, 1); break;
    case 1: outer_stride = b->si; inner_stride = 1; base = idx(b, 1, layer, 1); break;
    default: outer_stride = b->si; inner_stride = b->sj; base = idx(b, 1, 1, layer); break;
    }
    long p = 0;
    for (int a = 0; a < n; a++) {
        long at = base + a * outer_stride;
        for (int c = 0; c < n; c++, at += inner_stride) {
            if (into_ghosts) {
                b->u[at] = buf[p++];
            } else {
                buf[p++] = b->u[at];
            }
        }
    }
}

/* One step over the interior; returns the sum of (unew - u)^2 and stores max |unew - u| in *maxdiff. */
static double update(block_t *b, double *maxdiff)
{
    const double *restrict a = b->u;
    double *restrict w = b->unew;
    long si = b->si, sj = b->sj;
    double local = 0.0, max = 0.0;
    for (int i = 1; i <= b->n; i++) {
        for (int j = 1; j <= b->n; j++) {
            long at = idx(b, i, j, 1);
            for (int k = 1; k <= b->n; k++, at++) {
                double s = ((((a[at - si] + a[at + si]) + a[at - sj]) + a[at + sj]) + a[at - 1]) + a[at + 1];
                double v = 0.4 * a[at] + 0.1 * s;
                double d = v - a[at];
                w[at] = v;
                local += d * d;
                double ad = fabs(d);
                if (ad > max) {
                    max = ad;
                }
            }
        }
    }
    b->unew = b->u;
    b->u = w;
    *maxdiff = max;
    return local;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, np;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);

    int n = 0, iters = 0, periodic = 1;
    if (argc < 3 || argc > 4) {
        usage_exit(rank, "N and ITERS are required");
    }
    if (!parse_int(argv[1], &n) || !parse_int(argv[2], &iters) || n < 1 || iters < 1) {
        usage_exit(rank, "N and ITERS must be whole numbers of at least 1");
    }
    if (argc == 4) {
        const char *p = strncmp(argv[3], "periodic=", 9) == 0 ? argv[3] + 9 : argv[3];
        if (!parse_int(p, &periodic) || periodic > 1) {
            usage_exit(rank, "periodic must be 0 or 1");
        }
    }

    int dims[3] = {0, 0, 0}, periods[3] = {periodic, periodic, periodic}, coords[3];
    MPI_Dims_create(np, 3, dims);
    MPI_Comm cart;
    MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 0, &cart);
    MPI_Comm_rank(cart, &rank);
    MPI_Cart_coords(cart, rank, 3, coords);
    int nb[6];
    for (int d = 0; d < 3; d++) {
        MPI_Cart_shift(cart, d, 1, &nb[2 * d], &nb[2 * d + 1]);
    }

    block_t b = {.n = n, .sj = n + 2, .si = (long) (n + 2) * (n + 2)};
    size_t points = (size_t) (n + 2) * b.si;
    b.u = calloc(points, sizeof(double));
    b.unew = calloc(points, sizeof(double));
    size_t face = (size_t) n * n;
    double *out = malloc(6 * face * sizeof(double)), *in = malloc(6 * face * sizeof(double));
    if (b.u == NULL || b.unew == NULL || out == NULL || in == NULL) {
        fprintf(stderr, "stencil3d: rank %d cannot allocate an N = %d block\n", rank, n);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (int i = 1; i <= n; i++) {
        for (int j = 1; j <= n; j++) {
            for (int k = 1; k <= n; k++) {
                long gx = (long) coords[0] * n + i - 1, gy = (long) coords[1] * n + j - 1,
                     gz = (long) coords[2] * n + k - 1;
                b.u[idx(&b, i, j, k)] = ((7 * gx + 13 * gy + 17 * gz) % 101) / 100.0;
            }
        }
    }

    MPI_Request req[12];
    MPI_Status status[12]; /* not MPI_STATUSES_IGNORE: GCC 12 warns wrongly about MPICH's definition of it */
    double local, global, residual = 0, res1 = 0, maxdiff = 0, halo_s = 0, allreduce_s = 0;
    MPI_Barrier(cart);
    double t0 = MPI_Wtime();
    for (int it = 0; it < iters; it++) {
        double h0 = MPI_Wtime();
        for (int dir = 0; dir < 6; dir++) {
            copy_face(&b, dir, out + dir * face, 0);
        }
        for (int dir = 0; dir < 6; dir++) {
            MPI_Irecv(in + dir * face, (int) face, MPI_DOUBLE, nb[dir], dir ^ 1, cart, &req[dir]);
        }
        for (int dir = 0; dir < 6; dir++) {
            MPI_Isend(out + dir * face, (int) face, MPI_DOUBLE, nb[dir], dir, cart, &req[6 + dir]);
        }
        MPI_Waitall(12, req, status);
        for (int dir = 0; dir < 6; dir++) {
            if (nb[dir] != MPI_PROC_NULL) {
                copy_face(&b, dir, in + dir * face, 1);
            }
        }
        double h1 = MPI_Wtime();
        local = update(&b, &maxdiff);
        double a0 = MPI_Wtime();
        MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, cart);
        double a1 = MPI_Wtime();
        halo_s += h1 - h0;
        allreduce_s += a1 - a0;
        residual = sqrt(global);
        if (it == 0) {
            res1 = residual;
        }
    }
    double loop = MPI_Wtime() - t0;

    double total_max, times_in[2] = {halo_s, allreduce_s}, times[2], maxdiff_all, sum = 0, checksum;
    MPI_Reduce(&loop, &total_max, 1, MPI_DOUBLE, MPI_MAX, 0, cart);
    MPI_Reduce(times_in, times, 2, MPI_DOUBLE, MPI_SUM, 0, cart);
    MPI_Allreduce(&maxdiff, &maxdiff_all, 1, MPI_DOUBLE, MPI_MAX, cart);
    for (int i = 1; i <= n; i++) {
        for (int j = 1; j <= n; j++) {
            long at = idx(&b, i, j, 1);
            for (int k = 1; k <= n; k++, at++) {
                sum += b.u[at];
            }
        }
    }
    MPI_Reduce(&sum, &checksum, 1, MPI_DOUBLE, MPI_SUM, 0, cart);

    if (rank == 0) {
        double per_iter = 1e6 / (np * (double) iters);
        printf("stencil3d np=%d dims=%dx%dx%d n=%d iters=%d periodic=%d faces=packed"
               " total_s=%.6f comm_us_per_iter=%.3f halo_us_per_iter=%.3f allreduce_us_per_iter=%.3f"
               " residual=%.15e res1=%.15e maxdiff=%.15e checksum=%.15e\n",
               np, dims[0], dims[1], dims[2], n, iters, periodic, total_max, (times[0] + times[1]) * per_iter,
               times[0] * per_iter, times[1] * per_iter, residual, res1, maxdiff_all, checksum);
    }
    free(b.u);
    free(b.unew);
    free(out);
    free(in);
    MPI_Comm_free(&cart);
    MPI_Finalize();
    return 0;
}
