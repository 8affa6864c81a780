package dev.mpj.launcher;

import dev.mpj.runtime.pmi.wire.ProcessMapping;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a node agent needs to start its node's ranks as mpjrun would, sent down the tree to each agent once it has
 * shown the job's secret: the placement, the KVS name, the tree's width, the ranks' init timeout (which bounds the
 * agent's wait for its own children), the ranks' command line and per-rank flags, their extra variables and
 * working directory, and whether output lines carry the rank.
 */
record AgentJob(int size, int nodes, String kvsName, int treeWidth, int initTimeoutSeconds, boolean prefixOutput,
                List<String> commandLine,
                Map<Integer, List<String>> rankFlags, Map<String, String> environment, String workingDirectory) {

    ProcessMapping mapping() {
        return ProcessMapping.blocks(size, nodes);
    }

    Duration initTimeout() {
        return Duration.ofSeconds(initTimeoutSeconds);
    }

    byte[] encode() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(size);
            out.writeInt(nodes);
            out.writeUTF(kvsName);
            out.writeInt(treeWidth);
            out.writeInt(initTimeoutSeconds);
            out.writeBoolean(prefixOutput);
            writeList(out, commandLine);
            out.writeInt(rankFlags.size());
            for (Map.Entry<Integer, List<String>> e : rankFlags.entrySet()) {
                out.writeInt(e.getKey());
                writeList(out, e.getValue());
            }
            out.writeInt(environment.size());
            for (Map.Entry<String, String> e : environment.entrySet()) {
                out.writeUTF(e.getKey());
                out.writeUTF(e.getValue());
            }
            out.writeBoolean(workingDirectory != null);
            if (workingDirectory != null) {
                out.writeUTF(workingDirectory);
            }
        } catch (IOException e) {
            throw new IllegalStateException(e); // a byte array does not fail
        }
        return bytes.toByteArray();
    }

    static AgentJob decode(byte[] bytes) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
        int size = in.readInt();
        int nodes = in.readInt();
        String kvsName = in.readUTF();
        int width = in.readInt();
        int initTimeout = in.readInt();
        boolean prefix = in.readBoolean();
        List<String> commandLine = readList(in);
        Map<Integer, List<String>> flags = new LinkedHashMap<>();
        for (int i = in.readInt(); i > 0; i--) {
            flags.put(in.readInt(), readList(in));
        }
        Map<String, String> environment = new LinkedHashMap<>();
        for (int i = in.readInt(); i > 0; i--) {
            environment.put(in.readUTF(), in.readUTF());
        }
        String wdir = in.readBoolean() ? in.readUTF() : null;
        return new AgentJob(size, nodes, kvsName, width, initTimeout, prefix, commandLine, flags, environment, wdir);
    }

    private static void writeList(DataOutputStream out, List<String> list) throws IOException {
        out.writeInt(list.size());
        for (String s : list) {
            out.writeUTF(s);
        }
    }

    private static List<String> readList(DataInputStream in) throws IOException {
        List<String> list = new ArrayList<>();
        for (int i = in.readInt(); i > 0; i--) {
            list.add(in.readUTF());
        }
        return list;
    }
}
