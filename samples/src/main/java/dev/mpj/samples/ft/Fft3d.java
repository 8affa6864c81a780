package dev.mpj.samples.ft;

import mpi.Intracomm;
import mpi.MPI;

import java.nio.ByteBuffer;

/**
 * FT's distributed 3D FFT ({@code fft(dir, x1, x2)}): 1D FFTs along the dimension each layout holds
 * whole, with global transposes between layouts. The input array {@code x1} is used as scratch and
 * the result lands in {@code x2}, as in NPB. Forward: layout 1 to layout 3; inverse: 3 to 1. The transposes
 * exchange {@link ComplexBytes} buffers of their own, kept for the whole run, in {@code MPI.Alloc_mem} memory: the
 * ranks of a node then copy each other's blocks once, straight out of the sender's buffer.
 */
final class Fft3d {
    private final FtLayout layout;
    private final Stockham fft;
    /** Ranks with the same {@code me1}, ranked by {@code me2} (NPB's {@code commslice1}). */
    private final Intracomm slice1;
    /** Ranks with the same {@code me2}, ranked by {@code me1} (NPB's {@code commslice2}). */
    private final Intracomm slice2;
    private final FtTimers timers;
    /** Made by the first transpose, so a solver that transforms nothing (a test of its index map) needs no MPI. */
    private ByteBuffer sent;
    private ByteBuffer received;

    Fft3d(FtLayout layout, Intracomm slice1, Intracomm slice2, FtTimers timers) {
        this.layout = layout;
        this.timers = timers;
        this.fft = new Stockham(layout.maxdim(), layout.fftblock, layout.fftblockpad);
        this.slice1 = slice1;
        this.slice2 = slice2;
    }

    void forward(double[] x1, double[] x2) {
        int[] d1 = layout.dims[1], d2 = layout.dims[2], d3 = layout.dims[3];
        switch (layout.kind) {
            case ZERO_D -> {
                cffts1(1, d1[0], d1[1], d1[2], x1, x1);
                cffts2(1, d2[0], d2[1], d2[2], x1, x1);
                cffts3(1, d3[0], d3[1], d3[2], x1, x2);
            }
            case ONE_D -> {
                cffts1(1, d1[0], d1[1], d1[2], x1, x1);
                cffts2(1, d2[0], d2[1], d2[2], x1, x1);
                transposeXyZ(2, x1, x2);
                cffts1(1, d3[0], d3[1], d3[2], x2, x2);
            }
            case TWO_D -> {
                cffts1(1, d1[0], d1[1], d1[2], x1, x1);
                transposeXY(1, 2, x1, x2);
                cffts1(1, d2[0], d2[1], d2[2], x2, x2);
                transposeXZ(2, 3, x2, x1);
                cffts1(1, d3[0], d3[1], d3[2], x1, x2);
            }
        }
    }

    void inverse(double[] x1, double[] x2) {
        int[] d1 = layout.dims[1], d2 = layout.dims[2], d3 = layout.dims[3];
        switch (layout.kind) {
            case ZERO_D -> {
                cffts3(-1, d3[0], d3[1], d3[2], x1, x1);
                cffts2(-1, d2[0], d2[1], d2[2], x1, x1);
                cffts1(-1, d1[0], d1[1], d1[2], x1, x2);
            }
            case ONE_D -> {
                cffts1(-1, d3[0], d3[1], d3[2], x1, x1);
                transposeXYz(3, x1, x2);
                cffts2(-1, d2[0], d2[1], d2[2], x2, x2);
                cffts1(-1, d1[0], d1[1], d1[2], x2, x2);
            }
            case TWO_D -> {
                cffts1(-1, d3[0], d3[1], d3[2], x1, x1);
                transposeXZ(3, 2, x1, x2);
                cffts1(-1, d2[0], d2[1], d2[2], x2, x2);
                transposeXY(2, 1, x2, x1);
                cffts1(-1, d1[0], d1[1], d1[2], x1, x2);
            }
        }
    }

    private void cffts1(int is, int d1, int d2, int d3, double[] x, double[] xout) {
        timers.start(FtTimers.FFT);
        fft.cffts1(is, d1, d2, d3, x, xout);
        timers.stop(FtTimers.FFT);
    }

    private void cffts2(int is, int d1, int d2, int d3, double[] x, double[] xout) {
        timers.start(FtTimers.FFT);
        fft.cffts2(is, d1, d2, d3, x, xout);
        timers.stop(FtTimers.FFT);
    }

    private void cffts3(int is, int d1, int d2, int d3, double[] x, double[] xout) {
        timers.start(FtTimers.FFT);
        fft.cffts3(is, d1, d2, d3, x, xout);
        timers.stop(FtTimers.FFT);
    }

    /** 1D layout, (x·y, z/np) to (z, x·y/np): local transpose, Alltoall, reorder (NPB's transpose_xy_z). */
    private void transposeXyZ(int l1, double[] xin, double[] xout) {
        int[] d = layout.dims[l1];
        transpose2(d[0] * d[1], d[2], xin, xout);
    }

    /** 1D layout, (z, x·y/np) to (x·y, z/np) (NPB's transpose_x_yz). */
    private void transposeXYz(int l1, double[] xin, double[] xout) {
        int[] d = layout.dims[l1];
        transpose2(d[0], d[1] * d[2], xin, xout);
    }

    /** 1D layout: an n1 × n2 matrix transposed across the ranks of {@code slice1}. */
    private void transpose2(int n1, int n2, double[] xin, double[] xout) {
        exchange(() -> Transposes.transpose2Local(n1, n2, xin, sent), slice1,
                () -> Transposes.transpose2Finish(n1, n2, layout.np2, received, xout));
    }

    /** 2D layout, x and y exchanged among the ranks of {@code slice2} (NPB's transpose_x_y). */
    private void transposeXY(int l1, int l2, double[] xin, double[] xout) {
        int[] a = layout.dims[l1], b = layout.dims[l2];
        exchange(() -> Transposes.xyLocal(a[0], a[1], a[2], xin, sent), slice2,
                () -> Transposes.xyFinish(b[0], b[1], b[2], layout.np1, received, xout));
    }

    /** 2D layout, x and z exchanged among the ranks of {@code slice1} (NPB's transpose_x_z). */
    private void transposeXZ(int l1, int l2, double[] xin, double[] xout) {
        int[] a = layout.dims[l1], b = layout.dims[l2];
        exchange(() -> Transposes.xzLocal(a[0], a[1], a[2], xin, sent), slice1,
                () -> Transposes.xzFinish(b[0], b[1], b[2], layout.np2, received, xout));
    }

    /**
     * The three timed steps of every transpose: the local reordering into {@link #sent}, the Alltoall among
     * {@code comm} into {@link #received}, and the final reordering out of it.
     */
    private void exchange(Runnable local, Intracomm comm, Runnable finish) {
        if (sent == null) {
            sent = MPI.Alloc_mem(ComplexBytes.bytes(layout.ntdivnp));
            received = MPI.Alloc_mem(ComplexBytes.bytes(layout.ntdivnp));
        }
        timers.start(FtTimers.TRANSPOSE_LOCAL);
        local.run();
        timers.stop(FtTimers.TRANSPOSE_LOCAL);
        timers.start(FtTimers.ALLTOALL);
        alltoall(comm, sent, received);
        timers.stop(FtTimers.ALLTOALL);
        timers.start(FtTimers.TRANSPOSE_FINISH);
        finish.run();
        timers.stop(FtTimers.TRANSPOSE_FINISH);
    }

    /** Alltoall of equal shares of {@code send} to every member; a copy on a one-rank slice. */
    private static void alltoall(Intracomm comm, ByteBuffer send, ByteBuffer recv) {
        int size = comm.Size();
        if (size == 1) {
            recv.put(0, send, 0, send.capacity());
            return;
        }
        int perPeer = send.capacity() / size;
        comm.Alltoall(send, 0, perPeer, MPI.BYTE, recv, 0, perPeer, MPI.BYTE);
    }
}
