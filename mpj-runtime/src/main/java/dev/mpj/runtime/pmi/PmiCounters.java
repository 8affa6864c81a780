package dev.mpj.runtime.pmi;

import java.util.Arrays;

/** What one client did on the PMI wire, for benchmarks and verbose init reports. */
public final class PmiCounters {
    private long puts;
    private long gets;
    private long barriers;
    private long rings;
    private long allgathers;
    private long[] getNanos = new long[16];
    private int timedGets;
    private long bytesSent;
    private long bytesReceived;

    public void countPut() {
        puts++;
    }

    public void countGet() {
        gets++;
    }

    /** A get that took {@code nanos}, request to reply, kept for {@link #getNanos()}. */
    public void countGet(long nanos) {
        countGet();
        if (timedGets == getNanos.length) {
            getNanos = Arrays.copyOf(getNanos, 2 * timedGets);
        }
        getNanos[timedGets++] = nanos;
    }

    /** How long each timed get took, in the order they were made. */
    public long[] getNanos() {
        return Arrays.copyOf(getNanos, timedGets);
    }

    public void countBarrier() {
        barriers++;
    }

    public void countRing() {
        rings++;
    }

    public void countAllgather() {
        allgathers++;
    }

    public void countBytes(long sent, long received) {
        bytesSent += sent;
        bytesReceived += received;
    }

    public long puts() {
        return puts;
    }

    public long gets() {
        return gets;
    }

    public long barriers() {
        return barriers;
    }

    /** PMIX_Ring operations. */
    public long rings() {
        return rings;
    }

    /** Allgathers: one request each, whatever the job's size. */
    public long allgathers() {
        return allgathers;
    }

    public long bytesSent() {
        return bytesSent;
    }

    public long bytesReceived() {
        return bytesReceived;
    }

    @Override
    public String toString() {
        return "puts=" + puts + " gets=" + gets + " barriers=" + barriers + " rings=" + rings
                + " allgathers=" + allgathers
                + " bytesSent=" + bytesSent + " bytesReceived=" + bytesReceived;
    }
}
