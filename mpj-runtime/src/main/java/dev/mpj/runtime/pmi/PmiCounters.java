package dev.mpj.runtime.pmi;

/** What one client did on the PMI wire, for benchmarks and verbose init reports. */
public final class PmiCounters {
    private long puts;
    private long gets;
    private long barriers;
    private long bytesSent;
    private long bytesReceived;

    public void countPut() {
        puts++;
    }

    public void countGet() {
        gets++;
    }

    public void countBarrier() {
        barriers++;
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

    public long bytesSent() {
        return bytesSent;
    }

    public long bytesReceived() {
        return bytesReceived;
    }

    @Override
    public String toString() {
        return "puts=" + puts + " gets=" + gets + " barriers=" + barriers
                + " bytesSent=" + bytesSent + " bytesReceived=" + bytesReceived;
    }
}
