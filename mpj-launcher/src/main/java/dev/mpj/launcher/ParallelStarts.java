package dev.mpj.launcher;

import java.io.IOException;
import java.util.function.IntFunction;

/**
 * Starts a batch of processes (a node's ranks, the agents of a node's children) on a few threads side by side. A
 * process start returns only once the child has executed its program, which on a machine busy with the processes
 * already booting waits for the CPU; started one after another, the last of the batch would wait for all the others'.
 */
final class ParallelStarts {
    /** Threads that start processes at once. */
    static final int THREADS = 4;

    private ParallelStarts() {
    }

    /**
     * Starts {@code builders.apply(i)} into {@code started[i]}, thread t of {@value #THREADS} taking the indexes
     * i ≡ t; returns the first failure, naming {@code what.apply(i)} (the processes after it on that thread are not
     * started), or null.
     */
    static IOException start(IntFunction<ProcessBuilder> builders, IntFunction<String> what, Process[] started,
                             String threadName) {
        int threads = Math.min(THREADS, started.length);
        IOException[] failures = new IOException[threads];
        Thread[] starters = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            int first = t;
            starters[t] = new Thread(new Starter(builders, what, started, failures, first, threads), threadName + t);
            starters[t].start();
        }
        IOException failure = null;
        for (int t = 0; t < threads; t++) {
            try {
                starters[t].join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                failure = new IOException("interrupted while starting processes");
            }
            if (failure == null) {
                failure = failures[t];
            }
        }
        return failure;
    }

    /**
     * Thread {@code first}'s share of the batch: indexes i ≡ first (mod threads). A class, not a lambda: the threads
     * would link the lambda's call site all at once, and each may spin its own class.
     */
    private record Starter(IntFunction<ProcessBuilder> builders, IntFunction<String> what, Process[] started,
                           IOException[] failures, int first, int threads) implements Runnable {
        @Override
        public void run() {
            for (int i = first; i < started.length; i += threads) {
                try {
                    started[i] = builders.apply(i).start();
                } catch (IOException e) {
                    failures[first] = new IOException("cannot start " + what.apply(i) + ": " + e.getMessage(), e);
                    return;
                }
            }
        }
    }
}
