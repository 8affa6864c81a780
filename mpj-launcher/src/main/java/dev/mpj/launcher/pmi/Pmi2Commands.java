package dev.mpj.launcher.pmi;

import dev.mpj.runtime.pmi.SharedKvsTable;
import dev.mpj.runtime.pmi.wire.Pmi2Message;
import dev.mpj.runtime.pmi.wire.PmiAllgather;
import dev.mpj.runtime.pmi.wire.PmiLimits;
import dev.mpj.runtime.pmi.wire.ProcessMapping;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The PMI-2 commands (PMI.md §3.2), applied to the {@link PmiJob}: every reply echoes the request's
 * {@code thrid} when it had one. Node attributes ({@code info-putnodeattr}, {@code info-getnodeattr}) are shared
 * by the ranks of one node of the mapping; a get with {@code wait=TRUE} is answered when the key is put.
 * {@code ring} is PMIX_Ring ({@link JobRing}); a ring request without an integer {@code ring-count} is malformed.
 * {@code fullinit-response} offers the {@link JobAllgather allgather}.
 */
final class Pmi2Commands {
    private final PmiJob job;

    Pmi2Commands(PmiJob job) {
        this.job = job;
    }

    void handle(PmiClientConnection c, Pmi2Message m) {
        String cmd = m.command();
        String thrid = m.get("thrid");
        switch (cmd) {
            case "fullinit" -> fullinit(c, m, thrid);
            case "job-getid" -> c.send(reply(thrid, "job-getid-response", "rc", "0", "jobid", job.kvsName()));
            case "info-getjobattr" -> c.send(lookupReply(thrid, "info-getjobattr-response",
                    jobAttribute(m.require("key"))));
            case "kvs-put" -> kvsPut(c, m, thrid);
            case "kvs-get" -> c.send(lookupReply(thrid, "kvs-get-response", job.kvs().get(m.require("key"))));
            case "kvs-fence" -> job.barrier().enter(c, reply(thrid, "kvs-fence-response", "rc", "0"));
            case "ring" -> job.ring().enter(c, m.requireInt("ring-count"), m.get("ring-left"), m.get("ring-right"),
                    thrid);
            case PmiAllgather.PMI2_REQUEST -> job.allgather().enter(c, m.require(PmiAllgather.VALUE), true, thrid);
            case "info-putnodeattr" -> putNodeAttribute(c, m, thrid);
            case "info-getnodeattr" -> getNodeAttribute(c, m, thrid);
            case "finalize" -> job.finalize(c, reply(thrid, "finalize-response", "rc", "0"));
            case "abort" -> job.abort(c, m.get("exitcode"));
            default -> c.send(reply(thrid, cmd + "-response", "rc", "-1", "errmsg", "unknown_command"));
        }
    }

    private void fullinit(PmiClientConnection c, Pmi2Message m, String thrid) {
        String claimed = m.get("pmirank");
        if (claimed != null && !claimed.trim().equals(Integer.toString(c.rank()))) {
            c.fail("sent fullinit with pmirank=" + claimed + " on the connection of rank " + c.rank());
            return;
        }
        List<String> fields = new ArrayList<>(List.of("rc", "0", "pmi-version", "2", "pmi-subversion", "0",
                "rank", Integer.toString(c.rank()), "size", Integer.toString(job.mapping().size()), "appnum", "0",
                "debugged", "FALSE", "pmiverbose", "FALSE", PmiAllgather.PMI2_OFFER, "TRUE"));
        if (job.sharedKvsPath() != null) {
            fields.addAll(List.of(SharedKvsTable.PMI2_OFFER, job.sharedKvsPath()));
        }
        c.send(reply(thrid, "fullinit-response", fields.toArray(new String[0])));
    }

    private String jobAttribute(String key) {
        return switch (key) {
            case ProcessMapping.KEY -> job.mapping().pmiValue();
            case "universeSize" -> Integer.toString(job.mapping().size());
            default -> null;
        };
    }

    private void kvsPut(PmiClientConnection c, Pmi2Message m, String thrid) {
        String key = m.require("key");
        String value = m.require("value");
        if (key.length() >= PmiLimits.KEYLEN_MAX) {
            c.send(reply(thrid, "kvs-put-response", "rc", "-1", "errmsg",
                    "key_longer_than_" + (PmiLimits.KEYLEN_MAX - 1)));
        } else {
            job.kvs().stage(key, value);
            c.send(reply(thrid, "kvs-put-response", "rc", "0"));
        }
    }

    /** Visible at once to the ranks of the putter's node, and answers the gets that wait for it there. */
    private void putNodeAttribute(PmiClientConnection c, Pmi2Message m, String thrid) {
        String key = m.require("key");
        String value = m.require("value");
        List<JobKvs.NodeAttributeWaiter> answered = job.kvs().putNodeAttribute(c.rank(), key, value);
        c.send(reply(thrid, "info-putnodeattr-response", "rc", "0"));
        for (JobKvs.NodeAttributeWaiter w : answered) {
            w.connection().send(lookupReply(w.thrid(), "info-getnodeattr-response", value));
        }
    }

    private void getNodeAttribute(PmiClientConnection c, Pmi2Message m, String thrid) {
        String key = m.require("key");
        String value = job.kvs().nodeAttribute(c.rank(), key);
        if (value == null && "TRUE".equalsIgnoreCase(m.get("wait"))) {
            job.kvs().awaitNodeAttribute(c.rank(), key, new JobKvs.NodeAttributeWaiter(c, thrid));
        } else {
            c.send(lookupReply(thrid, "info-getnodeattr-response", value));
        }
    }

    /** A lookup reply: {@code found=TRUE;value=…} or {@code found=FALSE}. */
    private static Pmi2Message lookupReply(String thrid, String command, String value) {
        return value == null ? reply(thrid, command, "rc", "0", "found", "FALSE")
                : reply(thrid, command, "rc", "0", "found", "TRUE", "value", value);
    }

    /** A PMI-2 reply, echoing the request's {@code thrid} when it had one. */
    private static Pmi2Message reply(String thrid, String command, String... keyValues) {
        if (thrid == null) {
            return Pmi2Message.of(command, keyValues);
        }
        String[] withThrid = Arrays.copyOf(keyValues, keyValues.length + 2);
        withThrid[keyValues.length] = "thrid";
        withThrid[keyValues.length + 1] = thrid;
        return Pmi2Message.of(command, withThrid);
    }
}
