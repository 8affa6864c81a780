package dev.mpj.it;

import mpi.MPI;
import mpi.MPIException;

/** Assertions inside rank programs: a failure throws, which fails the job with the rank named. */
final class Check {
    private Check() {
    }

    static void that(boolean condition, String what) {
        if (!condition) {
            throw new IllegalStateException("rank " + MPI.COMM_WORLD.Rank() + ": " + what);
        }
    }

    static void equal(long expected, long actual, String what) {
        that(expected == actual, what + ": expected " + expected + " but was " + actual);
    }

    /** Runs {@code call}, which must raise an MPIException of {@code errorClass}. */
    static void raises(int errorClass, Runnable call) {
        raises(errorClass, "the call", call);
    }

    /** Runs {@code call}, which must raise an MPIException of {@code errorClass}. */
    static void raises(int errorClass, String what, Runnable call) {
        try {
            call.run();
        } catch (MPIException e) {
            equal(errorClass, e.getErrorClass(), "error class for " + what + " (" + e.getMessage() + ")");
            return;
        }
        that(false, what + " did not fail");
    }

    /** Prints the line the test harness counts: one per rank that got to the end. */
    static void done(String program) {
        System.out.println(program + " OK rank " + MPI.COMM_WORLD.Rank());
    }
}
