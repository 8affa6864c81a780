package dev.mpj.it;

import dev.mpj.runtime.init.InitReport;
import dev.mpj.runtime.MpjRuntime;
import dev.mpj.runtime.node.NodeSegment;
import mpi.MPI;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.HexFormat;

/**
 * Prints what MPI.Init left in this rank's node segment, for the test to compare across ranks and strategies:
 * {@code cardtable rank R node K digest D slot S card C exchange X puts P gets G barriers B rings N allgathers A},
 * where D is the SHA-256 of the whole card table, S its slot length, C this rank's own card (hex), and P, G, B, N,
 * A the PMI operations of the exchange phase and its fence. Then checks that a message reaches every other rank.
 */
public final class CardTableProgram {
    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        MpjRuntime runtime = MpjRuntime.current();
        int rank = MPI.COMM_WORLD.Rank();
        int size = MPI.COMM_WORLD.Size();
        NodeSegment segment = runtime.nodeSegment();
        ByteBuffer table = segment.cardTable();
        byte[] bytes = new byte[table.remaining()];
        table.get(bytes);
        InitReport.Phase exchange = runtime.initReport().get("exchange");
        InitReport.Phase fence = runtime.initReport().get("fence");
        HexFormat hex = HexFormat.of();
        System.out.println("cardtable rank " + rank + " node " + runtime.nodeMap().nodeOf(rank) + " digest "
                + hex.formatHex(MessageDigest.getInstance("SHA-256").digest(bytes)) + " slot "
                + segment.cardSlotLength() + " card " + hex.formatHex(segment.card(rank)) + " exchange "
                + runtime.initReport().exchange() + " puts " + exchange.puts() + " gets " + exchange.gets()
                + " barriers " + (exchange.barriers() + fence.barriers()) + " rings " + (exchange.rings() + fence.rings())
                + " allgathers " + (exchange.allgathers() + fence.allgathers()));
        // every pair talks: the addresses in the table work
        int[] token = {rank};
        for (int shift = 1; shift < size; shift++) {
            int[] got = new int[1];
            MPI.COMM_WORLD.Sendrecv(token, 0, 1, MPI.INT, (rank + shift) % size, shift, got, 0, 1, MPI.INT,
                    (rank - shift + size) % size, shift);
            Check.equal((rank - shift + size) % size, got[0], "token from " + shift + " ranks before");
        }
        Check.done("cardtable");
        MPI.Finalize();
    }
}
