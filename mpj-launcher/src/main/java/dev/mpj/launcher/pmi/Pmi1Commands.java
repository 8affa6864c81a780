package dev.mpj.launcher.pmi;

import dev.mpj.runtime.pmi.SharedKvsTable;
import dev.mpj.runtime.pmi.wire.Pmi1Message;
import dev.mpj.runtime.pmi.wire.PmiAllgather;
import dev.mpj.runtime.pmi.wire.PmiLimits;

/**
 * The PMI-1 commands (PMI.md §2), one method per request, applied to the {@link PmiJob}. A connection must
 * identify itself ({@code initack}) before anything else; {@code init pmi_version=2} switches it to PMI-2
 * ({@link Pmi2Commands}). {@code get_maxes} offers the {@link PmiAllgather allgather}. Spawn, the one
 * multi-line command, is read to its end and refused.
 */
final class Pmi1Commands {
    private final PmiJob job;

    Pmi1Commands(PmiJob job) {
        this.job = job;
    }

    void handle(PmiClientConnection c, Pmi1Message m) {
        String cmd = m.command();
        if (c.rank() < 0 && !"initack".equals(m.get("cmd"))) {
            c.fail("sent cmd=" + cmd + " before identifying itself with cmd=initack pmiid=<rank>");
            return;
        }
        if (m.get("mcmd") != null) {
            c.skipMultiLineCommand(); // spawn: read up to endcmd, then refuse it
            return;
        }
        switch (cmd) {
            case "initack" -> initack(c, m);
            case "init" -> init(c, m);
            case "get_maxes" -> c.send(maxes());
            case "get_appnum" -> c.send(Pmi1Message.of("appnum", "appnum", "0"));
            case "get_my_kvsname" -> c.send(Pmi1Message.of("my_kvsname", "kvsname", job.kvsName()));
            case "get_universe_size" -> c.send(Pmi1Message.of("universe_size", "size",
                    Integer.toString(job.mapping().size())));
            case "put" -> put(c, m);
            case "get" -> get(c, m);
            case PmiAllgather.PMI1_REQUEST -> job.allgather().enter(c, m.require(PmiAllgather.VALUE), false, null);
            case "barrier_in" -> job.barrier().enter(c, Pmi1Message.of("barrier_out"));
            case "finalize" -> job.finalize(c, Pmi1Message.of("finalize_ack"));
            case "abort" -> job.abort(c, m.get("exitcode"));
            default -> c.send(Pmi1Message.of(cmd + "_result", "rc", "-1", "msg", "unknown_command"));
        }
    }

    /** The limits, the allgather offer and, when there is one, the path of the shared KVS table. */
    private Pmi1Message maxes() {
        String kvsmax = Integer.toString(PmiLimits.KVSNAME_MAX);
        String keymax = Integer.toString(PmiLimits.KEYLEN_MAX);
        String valmax = Integer.toString(PmiLimits.VALLEN_MAX);
        String table = job.sharedKvsPath();
        return table == null
                ? Pmi1Message.of("maxes", "kvsname_max", kvsmax, "keylen_max", keymax, "vallen_max", valmax,
                        PmiAllgather.PMI1_OFFER, "1")
                : Pmi1Message.of("maxes", "kvsname_max", kvsmax, "keylen_max", keymax, "vallen_max", valmax,
                        PmiAllgather.PMI1_OFFER, "1", SharedKvsTable.PMI1_OFFER, table);
    }

    /** The {@code endcmd} of a multi-line command: spawning is not supported. */
    void multiLineCommandEnded(PmiClientConnection c) {
        c.send(Pmi1Message.of("spawn_result", "rc", "-1", "msg", "spawn_not_supported"));
    }

    private void initack(PmiClientConnection c, Pmi1Message m) {
        if (c.rank() >= 0) {
            c.fail("sent cmd=initack a second time");
            return;
        }
        int id = m.requireInt("pmiid");
        if (job.identify(c, id)) {
            c.send(Pmi1Message.of("initack"),
                    Pmi1Message.of("set", "size", Integer.toString(job.mapping().size())),
                    Pmi1Message.of("set", "rank", Integer.toString(id)),
                    Pmi1Message.of("set", "debug", "0"));
        }
    }

    /** PMI-1 init; {@code pmi_version=2} is answered in PMI-1 and switches the connection to PMI-2. */
    private void init(PmiClientConnection c, Pmi1Message m) {
        String version = m.get("pmi_version");
        if (version == null || version.equals("1")) {
            c.send(Pmi1Message.of("response_to_init", "pmi_version", "1", "pmi_subversion", "1", "rc", "0"));
        } else if (version.equals("2")) {
            c.send(Pmi1Message.of("response_to_init", "pmi_version", "2", "pmi_subversion", "0", "rc", "0"));
            c.speakPmi2();
        } else {
            c.send(Pmi1Message.of("response_to_init", "pmi_version", "1", "pmi_subversion", "1", "rc", "-1",
                    "msg", "only_PMI-1_and_PMI-2_are_served"));
        }
    }

    private void put(PmiClientConnection c, Pmi1Message m) {
        String key = m.require("key");
        String value = m.require("value");
        if (!kvsNameMatches(m)) {
            c.send(Pmi1Message.of("put_result", "rc", "-1", "msg", "kvsname_not_found"));
        } else if (key.length() >= PmiLimits.KEYLEN_MAX) {
            c.send(Pmi1Message.of("put_result", "rc", "-1", "msg", "key_longer_than_" + (PmiLimits.KEYLEN_MAX - 1)));
        } else {
            job.kvs().stage(key, value);
            c.send(Pmi1Message.of("put_result", "rc", "0", "msg", "success"));
        }
    }

    private void get(PmiClientConnection c, Pmi1Message m) {
        String key = m.require("key");
        String value = kvsNameMatches(m) ? job.kvs().get(key) : null;
        if (value == null) {
            c.send(Pmi1Message.of("get_result", "rc", "-1", "msg", "key_" + key + "_not_found", "value", "unknown"));
        } else {
            c.send(Pmi1Message.of("get_result", "rc", "0", "msg", "success", "value", value));
        }
    }

    private boolean kvsNameMatches(Pmi1Message m) {
        String requested = m.get("kvsname");
        return requested == null || requested.equals(job.kvsName());
    }
}
