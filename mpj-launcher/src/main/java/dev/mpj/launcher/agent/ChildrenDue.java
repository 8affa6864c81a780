package dev.mpj.launcher.agent;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The child agents an agent waits for, and its one record of which have come: a child is admitted once, and only
 * until the wait for them has ended. When it ends short of them all, the missing are named and admission closes in
 * the same step, so no child can be both admitted and named missing.
 */
final class ChildrenDue {
    /** Why a child was or was not admitted. */
    enum Admission {
        ADMITTED, NOT_A_CHILD, ALREADY_CONNECTED, TOO_LATE
    }

    private final List<Integer> expected;
    private final Set<Integer> arrived = new HashSet<>();
    private boolean closed;

    ChildrenDue(List<Integer> expected) {
        this.expected = List.copyOf(expected);
    }

    synchronized Admission admit(int node) {
        if (!expected.contains(node)) {
            return Admission.NOT_A_CHILD;
        }
        if (arrived.contains(node)) {
            return Admission.ALREADY_CONNECTED;
        }
        if (closed) {
            return Admission.TOO_LATE;
        }
        arrived.add(node);
        if (arrived.size() == expected.size()) {
            notifyAll();
        }
        return Admission.ADMITTED;
    }

    /**
     * Waits up to {@code timeoutMillis} for every child; returns those that did not come, in tree order, and from
     * then on turns the late away (empty when all came).
     */
    synchronized List<Integer> await(long timeoutMillis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        long left;
        while (arrived.size() < expected.size() && (left = deadline - System.nanoTime()) > 0) {
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        closed = true;
        return expected.stream().filter(n -> !arrived.contains(n)).toList();
    }
}
