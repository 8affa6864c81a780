package dev.mpj.transport.shm;

import dev.mpj.api.MpiBackend;
import dev.mpj.api.Operation;
import dev.mpj.api.SendMode;
import dev.mpj.runtime.init.TransportRouter;
import dev.mpj.runtime.config.Settings;
import dev.mpj.runtime.engine.ProgressEngine;
import mpi.MPIException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The progress engine over shared memory: ranks are threads, each with its engine, router and transport. */
@Timeout(60)
class ShmEngineTest {
    private static final int CONTEXT = 4;

    @TempDir
    Path dir;

    /** A rank's engine wired as MPI.Init wires it: every peer of the node routed to shared memory. */
    static ProgressEngine engine(ShmNode node, int rank) throws Exception {
        ProgressEngine engine = new ProgressEngine(rank, Settings.defaults());
        ShmTransport shm = node.start(rank, engine);
        TransportRouter router = new TransportRouter(rank, node.ranks);
        for (int peer = 0; peer < node.ranks; peer++) {
            if (peer != rank) {
                router.route(peer, shm);
            }
        }
        engine.setRouter(router);
        return engine;
    }

    @Test
    void ranksThatSendLargeAndManyEagerMessagesToEachOtherBeforeReceivingBothComplete() throws Exception {
        int large = 8 << 20;
        int eager = 60_000;
        int eagerCount = 40; // 2.4 MB of eager data: far more than a ring holds
        try (ShmNode node = ShmNode.create(dir, 2, (int) ShmLayout.roomFor(2, 256 * 1024))) {
            ProgressEngine[] engines = {engine(node, 0), engine(node, 1)};
            ExecutorService pool = Executors.newFixedThreadPool(2);
            try {
                List<Future<?>> ranks = new ArrayList<>();
                for (int r = 0; r < 2; r++) {
                    int rank = r;
                    ranks.add(pool.submit(() -> {
                        ProgressEngine e = engines[rank];
                        int peer = 1 - rank;
                        List<Operation> ops = new ArrayList<>();
                        ops.add(e.send(Frames.payload(rank, large), peer, 1, CONTEXT, SendMode.STANDARD));
                        for (int i = 0; i < eagerCount; i++) {
                            ops.add(e.send(Frames.payload(rank + i, eager), peer, 2, CONTEXT, SendMode.STANDARD));
                        }
                        Operation big = e.receive(ByteBuffer.allocate(large), peer, 1, CONTEXT);
                        List<Operation> small = new ArrayList<>();
                        for (int i = 0; i < eagerCount; i++) {
                            small.add(e.receive(ByteBuffer.allocate(eager), peer, 2, CONTEXT));
                        }
                        ops.add(big);
                        ops.addAll(small);
                        e.await(() -> ops.stream().allMatch(Operation::isComplete));
                        assertTrue(Frames.matches(big.buffer().array(), peer, 0), "the large message");
                        for (int i = 0; i < eagerCount; i++) {
                            assertTrue(Frames.matches(small.get(i).buffer().array(), peer + i, 0), "eager " + i);
                        }
                        return null;
                    }));
                }
                for (Future<?> f : ranks) {
                    f.get(30, TimeUnit.SECONDS);
                }
            } finally {
                pool.shutdownNow();
            }
        }
    }

    @Test
    void aRingOfEightRanksOnFewCoresPassesTokensAround() throws Exception {
        int ranks = 8;
        int laps = 200;
        try (ShmNode node = ShmNode.create(dir, ranks, (int) ShmLayout.roomFor(ranks, 64 * 1024))) {
            ProgressEngine[] engines = new ProgressEngine[ranks];
            for (int r = 0; r < ranks; r++) {
                engines[r] = engine(node, r);
            }
            ExecutorService pool = Executors.newFixedThreadPool(ranks);
            try {
                List<Future<Integer>> results = new ArrayList<>();
                for (int r = 0; r < ranks; r++) {
                    int rank = r;
                    results.add(pool.submit(() -> {
                        ProgressEngine e = engines[rank];
                        int next = (rank + 1) % ranks;
                        int prev = (rank + ranks - 1) % ranks;
                        ByteBuffer token = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
                        for (int lap = 0; lap < laps; lap++) {
                            if (rank == 0) {
                                token.putInt(0, lap * ranks);
                                Operation s = e.send(token, next, lap, CONTEXT, SendMode.STANDARD);
                                e.await(s::isComplete);
                            }
                            Operation r2 = e.receive(ByteBuffer.allocate(4), prev, lap, CONTEXT);
                            e.await(r2::isComplete);
                            if (rank != 0) {
                                ByteBuffer t = r2.buffer().order(ByteOrder.LITTLE_ENDIAN);
                                t.putInt(0, t.getInt(0) + 1);
                                Operation s = e.send(t, next, lap, CONTEXT, SendMode.STANDARD);
                                e.await(s::isComplete);
                            } else {
                                assertEquals(lap * ranks + ranks - 1, r2.buffer().order(ByteOrder.LITTLE_ENDIAN).getInt(0), "token of lap " + lap);
                            }
                        }
                        return laps;
                    }));
                }
                for (Future<Integer> f : results) {
                    assertEquals(laps, f.get(30, TimeUnit.SECONDS));
                }
            } finally {
                pool.shutdownNow();
            }
        }
    }

    /**
     * Blocking receives against frames that all wait in the ring, in a known order: a receive takes the ring's next
     * frame itself only when that frame is the one MPI's order gives it; the unexpected queue goes first, and a
     * frame of another source, tag or context, a synchronous send or one longer than the room stays for the
     * general path. Alike into a room and straight into a {@code long[]}.
     */
    @ParameterizedTest(name = "into an array: {0}")
    @ValueSource(booleans = {false, true})
    void blockingReceivesOverTheRingKeepMpisOrderWhetherOrNotTheyTakeTheNextFrameThemselves(boolean intoArray)
            throws Exception {
        int other = CONTEXT + 1;
        int any = MpiBackend.ANY_SOURCE;
        int anyTag = MpiBackend.ANY_TAG;
        try (ShmNode node = ShmNode.create(dir, 3, (int) ShmLayout.roomFor(3, 64 * 1024))) {
            ProgressEngine[] engines = {engine(node, 0), engine(node, 1), engine(node, 2)};
            int[][] sent = { // sender, tag, context, synchronous; the message carries its index
                {1, 1, CONTEXT, 0}, {2, 2, CONTEXT, 0}, {1, 2, CONTEXT, 0}, {1, 1, CONTEXT, 0}, {2, 1, other, 0},
                {2, 1, CONTEXT, 0}, {1, 1, CONTEXT, 0}, {2, 1, CONTEXT, 0}, {2, 4, CONTEXT, 0}, {1, 3, CONTEXT, 1}};
            List<Operation> sends = new ArrayList<>();
            for (int i = 0; i < sent.length; i++) {
                int[] m = sent[i];
                ByteBuffer data = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, i);
                sends.add(engines[m[0]].send(data, 0, m[1], m[2], m[3] == 1 ? SendMode.SYNCHRONOUS
                        : SendMode.STANDARD));
            }
            int[][] received = { // source, tag, context asked; index expected
                {1, 2, CONTEXT, 2}, // the next frame has the source and context asked, another tag
                {any, 1, CONTEXT, 0}, // the unexpected queue before the ring
                {2, anyTag, CONTEXT, 1},
                {any, anyTag, CONTEXT, 3}, // the ring's next frame
                {2, 1, CONTEXT, 5}, // the next frame has the source and tag asked, another context
                {2, 1, CONTEXT, 7}, // the next frame has the context and tag asked, another source
                {any, 1, CONTEXT, 6},
                {any, anyTag, other, 4}};
            ProgressEngine receiver = engines[0];
            for (int[] r : received) {
                assertReceives(receiver, sent, r, intoArray);
            }
            // the next frame is longer than the room: the general path reports the truncation
            Operation truncated = intoArray
                    ? receiver.receiveAndWait(null, new int[1], 0, Integer.BYTES, Integer.BYTES, 2, 4, CONTEXT,
                            (source, tag) -> "Recv")
                    : receiver.receiveAndWait(ByteBuffer.allocate(4), 2, 4, CONTEXT, (source, tag) -> "Recv");
            assertEquals(MPIException.ERR_TRUNCATE, ((MPIException) truncated.error()).getErrorClass());
            // the next frame is a synchronous send's, which owes its sender an acknowledgement
            assertReceives(receiver, sent, new int[] {1, 3, CONTEXT, 9}, intoArray);
            assertEquals(0, receiver.unexpectedCount());
            Operation synchronous = sends.get(9);
            engines[1].await(synchronous::isComplete);
            assertNull(synchronous.error());
        }
    }

    /**
     * A stream of eager messages of every length from 0 to past the word-by-word copy's limit, through a ring small
     * enough to wrap many times, into blocking receives that mostly find their message at the ring's head: each
     * gets its own message's bytes, source, tag and length, whether it took the frame itself or through a pass.
     * Into a room, and straight into arrays of 2, 4 and 8-byte elements from their second element, which take the
     * message's whole elements only and leave the rest of the array as it was.
     */
    @ParameterizedTest(name = "into {0}")
    @ValueSource(ints = {0, Short.BYTES, Integer.BYTES, Long.BYTES})
    void blockingReceivesGetEachMessagesBytesAndEnvelopeAcrossTheRingsWraps(int elementBytes) throws Exception {
        int messages = 3_000;
        int longest = 136; // past the 64 bytes up to which the engine copies word by word
        try (ShmNode node = ShmNode.create(dir, 2, (int) ShmLayout.roomFor(2, 64 * 1024))) {
            ProgressEngine receiver = engine(node, 0);
            ProgressEngine sender = engine(node, 1);
            ExecutorService pool = Executors.newSingleThreadExecutor();
            try {
                Future<?> sends = pool.submit(() -> {
                    for (int i = 0; i < messages; i++) {
                        Operation s = sender.send(Frames.payload(i, i % (longest + 1)), 0, i % 3, CONTEXT,
                                SendMode.STANDARD);
                        sender.await(s::isComplete);
                    }
                    return null;
                });
                // every message is received before a failure is raised: a sender left writing into the ring as
                // the test unmaps it would crash the JVM instead
                AssertionError failed = null;
                for (int i = 0; i < messages; i++) {
                    int length = i % (longest + 1);
                    ByteBuffer room = ByteBuffer.allocate(longest);
                    Object array = elementBytes == 0 ? null : filledArray(elementBytes, longest / elementBytes + 2);
                    Operation op = array == null
                            ? receiver.receiveAndWait(room, 1, i % 3, CONTEXT, (source, tag) -> "Recv")
                            : receiver.receiveAndWait(null, array, 1, elementBytes, longest, 1, i % 3, CONTEXT,
                                    (source, tag) -> "Recv");
                    try {
                        assertReceived(op, room, array, elementBytes, i, length, longest);
                    } catch (AssertionError e) {
                        failed = failed == null ? e : failed;
                    }
                }
                sends.get(30, TimeUnit.SECONDS);
                if (failed != null) {
                    throw failed;
                }
                assertEquals(0, receiver.unexpectedCount());
            } finally {
                pool.shutdownNow();
            }
        }
    }

    /**
     * A window of non-blocking receives straight into arrays ({@link ProgressEngine#receiveIntoArray}) of 1, 2, 4 and
     * 8-byte elements, from their second element: the first half posted before anything is sent, so matched as the
     * frames come, the second half after its messages have come, so taken from the unexpected queue; eager lengths on
     * both sides of the word-by-word copy's limit and a rendezvous one in each half. Each takes its own message's
     * whole elements and envelope and leaves the rest of its array as it was.
     */
    @ParameterizedTest(name = "into elements of {0} bytes")
    @ValueSource(ints = {Byte.BYTES, Short.BYTES, Integer.BYTES, Long.BYTES})
    void nonBlockingReceivesIntoArraysTakeTheirMessagesWholeElementsPostedBeforeOrAfterThey(int elementBytes)
            throws Exception {
        int[] lengths = {0, 1, 8, 13, 64, 65, 200, 300_001};
        int half = lengths.length;
        int longest = 300_001;
        try (ShmNode node = ShmNode.create(dir, 2, 16 << 20)) {
            ProgressEngine receiver = engine(node, 0);
            ProgressEngine sender = engine(node, 1);
            Object[] arrays = new Object[2 * half];
            Operation[] receives = new Operation[2 * half];
            for (int i = 0; i < half; i++) {
                arrays[i] = filledArray(elementBytes, longest / elementBytes + 2);
                receives[i] = receiver.receiveIntoArray(arrays[i], 1, elementBytes, longest, 1, i % 3, CONTEXT);
            }
            ExecutorService pool = Executors.newSingleThreadExecutor();
            try {
                Future<?> sends = pool.submit(() -> {
                    List<Operation> ops = new ArrayList<>();
                    for (int i = 0; i < 2 * half; i++) {
                        ops.add(sender.send(Frames.payload(i, lengths[i % half]), 0, i % 3, CONTEXT,
                                SendMode.STANDARD));
                    }
                    sender.await(() -> ops.stream().allMatch(Operation::isComplete));
                    return null;
                });
                receiver.await(() -> Arrays.stream(receives, 0, half).allMatch(Operation::isComplete)
                        && receiver.unexpectedCount() == half);
                for (int i = half; i < 2 * half; i++) {
                    arrays[i] = filledArray(elementBytes, longest / elementBytes + 2);
                    receives[i] = receiver.receiveIntoArray(arrays[i], 1, elementBytes, longest, 1, i % 3, CONTEXT);
                }
                receiver.await(() -> Arrays.stream(receives).allMatch(Operation::isComplete));
                sends.get(30, TimeUnit.SECONDS);
                for (int i = 0; i < 2 * half; i++) {
                    assertReceived(receives[i], null, arrays[i], elementBytes, i, lengths[i % half], longest);
                }
            } finally {
                pool.shutdownNow();
            }
        }
    }

    /**
     * Standard sends copied out of a {@code byte[]} at once ({@link ProgressEngine#sendNow(byte[], int, int, int, int,
     * int)}), from a range off a word's boundary: each message carries its range only, on both sides of the
     * word-by-word copy's limit; one longer than the eager limit is declined with nothing sent.
     */
    @Test
    void sendsFromAnArrayCarryTheirRangeAndOneTooLongToGoEagerIsDeclined() throws Exception {
        int[] lengths = {0, 1, 8, 13, 64, 65, 200};
        try (ShmNode node = ShmNode.create(dir, 2, 16 << 20)) {
            ProgressEngine receiver = engine(node, 0);
            ProgressEngine sender = engine(node, 1);
            for (int i = 0; i < lengths.length; i++) {
                byte[] array = new byte[lengths[i] + 5];
                Arrays.fill(array, (byte) -1);
                Frames.payload(i, lengths[i]).get(array, 3, lengths[i]);
                assertTrue(sender.sendNow(array, 3, lengths[i], 0, i, CONTEXT), "message " + i + " goes at once");
            }
            byte[] tooLong = new byte[Settings.defaults().eagerThreshold() + 1];
            assertFalse(sender.sendNow(tooLong, 0, tooLong.length, 0, lengths.length, CONTEXT));
            for (int i = 0; i < lengths.length; i++) {
                Operation r = receiver.receive(ByteBuffer.allocate(256), 1, i, CONTEXT);
                receiver.await(r::isComplete);
                assertNull(r.error(), "message " + i);
                assertEquals(lengths[i], r.byteCount(), "the length of message " + i);
                byte[] got = new byte[lengths[i]];
                r.buffer().get(0, got);
                assertTrue(Frames.matches(got, i, 0), "the contents of message " + i);
            }
            receiver.poll();
            assertEquals(0, receiver.unexpectedCount(), "the declined send sent nothing");
        }
    }

    /** How the receiver of a window of rendezvous messages posts its receives. */
    enum Posting {
        /** One receive per message, by tag, in the order they were sent. */
        IN_ORDER,
        /** One receive per message, by tag, the last sent first. */
        REVERSED,
        /** Receives of any source and any tag, which take the messages in the order they came. */
        ANY_SOURCE_AND_TAG
    }

    /**
     * A window of rendezvous messages in flight at once, of lengths around the bulk channel's pieces, a data frame
     * and a record of the default room's rings, each arrives intact with its envelope whatever order the receives
     * are posted in, and the long ones through the receiver's bulk channel.
     */
    @ParameterizedTest
    @EnumSource(Posting.class)
    void aWindowOfRendezvousMessagesArrivesIntactWhateverOrderItsReceivesArePostedIn(Posting posting)
            throws Exception {
        int piece = ShmTransport.BULK_PIECE;
        int chunk = Settings.defaults().rendezvousChunk();
        int[] lengths = {2 * piece + 1, 4 * piece - 1, 4 * piece, 4 * piece + 1, chunk + 1, 5 * piece + 7,
                3 * chunk + 5, 600_001};
        int window = 3 * lengths.length;
        int longest = Arrays.stream(lengths).max().orElseThrow();
        try (ShmNode node = ShmNode.create(dir, 2, 16 << 20)) { // the default room: rings and channels of 4 MiB
            ProgressEngine receiver = engine(node, 0);
            ProgressEngine sender = engine(node, 1);
            ExecutorService pool = Executors.newSingleThreadExecutor();
            try {
                Future<?> sends = pool.submit(() -> {
                    List<Operation> ops = new ArrayList<>();
                    for (int i = 0; i < window; i++) {
                        ops.add(sender.send(Frames.payload(i, lengths[i % lengths.length]), 0, i, CONTEXT,
                                SendMode.STANDARD));
                    }
                    sender.await(() -> ops.stream().allMatch(Operation::isComplete));
                    return null;
                });
                Operation[] receives = new Operation[window];
                for (int j = 0; j < window; j++) {
                    int i = posting == Posting.REVERSED ? window - 1 - j : j;
                    receives[i] = posting == Posting.ANY_SOURCE_AND_TAG
                            ? receiver.receive(ByteBuffer.allocate(longest), MpiBackend.ANY_SOURCE,
                            MpiBackend.ANY_TAG, CONTEXT)
                            : receiver.receive(ByteBuffer.allocate(longest), 1, i, CONTEXT);
                }
                receiver.await(() -> Arrays.stream(receives).allMatch(Operation::isComplete));
                sends.get(30, TimeUnit.SECONDS);
                for (int i = 0; i < window; i++) {
                    Operation op = receives[i];
                    int length = lengths[i % lengths.length];
                    assertNull(op.error(), "message " + i);
                    assertEquals(1, op.source(), "the source of message " + i);
                    assertEquals(i, op.tag(), "the tag of message " + i);
                    assertEquals(length, op.byteCount(), "the length of message " + i);
                    assertTrue(Frames.matches(Arrays.copyOf(op.buffer().array(), length), i, 0),
                            "the bytes of message " + i);
                }
                assertTrue(node.layout().bulk(0).buffer().getLong(BulkChannel.WRITTEN_OFFSET) > 0,
                        "through the bulk channel");
            } finally {
                pool.shutdownNow();
            }
        }
    }

    /**
     * Message {@code i} of {@code length} bytes was received into {@code room}, or into {@code array} (when not null)
     * from its second element.
     */
    private static void assertReceived(Operation op, ByteBuffer room, Object array, int elementBytes, int i,
                                       int length, int longest) {
        assertNull(op.error(), "message " + i);
        assertEquals(1, op.source(), "the source of message " + i);
        assertEquals(i % 3, op.tag(), "the tag of message " + i);
        assertEquals(length, op.byteCount(), "the length of message " + i);
        if (array == null) {
            assertTrue(Frames.matches(Arrays.copyOf(room.array(), length), i, 0),
                    "the bytes of message " + i);
        } else {
            byte[] expected = bytesOf(filledArray(elementBytes, longest / elementBytes + 2));
            int whole = length - length % elementBytes;
            System.arraycopy(Frames.payload(i, whole).array(), 0, expected, elementBytes, whole);
            assertArrayEquals(expected, bytesOf(array), "the array after message " + i);
        }
    }

    /** An array of {@code n} elements of {@code elementBytes} bytes (byte, short, int or long), each -1. */
    private static Object filledArray(int elementBytes, int n) {
        switch (elementBytes) {
            case Byte.BYTES -> {
                byte[] a = new byte[n];
                Arrays.fill(a, (byte) -1);
                return a;
            }
            case Short.BYTES -> {
                short[] a = new short[n];
                Arrays.fill(a, (short) -1);
                return a;
            }
            case Integer.BYTES -> {
                int[] a = new int[n];
                Arrays.fill(a, -1);
                return a;
            }
            default -> {
                long[] a = new long[n];
                Arrays.fill(a, -1);
                return a;
            }
        }
    }

    /** The little-endian bytes of a byte, short, int or long array. */
    private static byte[] bytesOf(Object array) {
        ByteBuffer b;
        if (array instanceof byte[] a) {
            return a.clone();
        } else if (array instanceof short[] a) {
            b = ByteBuffer.allocate(a.length * Short.BYTES).order(ByteOrder.LITTLE_ENDIAN);
            b.asShortBuffer().put(a);
        } else if (array instanceof int[] a) {
            b = ByteBuffer.allocate(a.length * Integer.BYTES).order(ByteOrder.LITTLE_ENDIAN);
            b.asIntBuffer().put(a);
        } else {
            long[] a = (long[]) array;
            b = ByteBuffer.allocate(a.length * Long.BYTES).order(ByteOrder.LITTLE_ENDIAN);
            b.asLongBuffer().put(a);
        }
        return b.array();
    }

    /**
     * A blocking receive asking for {@code r}'s source, tag and context gets message {@code sent[r[3]]}, into a room
     * or straight into a {@code long[]}.
     */
    private static void assertReceives(ProgressEngine receiver, int[][] sent, int[] r, boolean intoArray) {
        ByteBuffer room = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
        long[] array = {-1, -1};
        Operation op = intoArray
                ? receiver.receiveAndWait(null, array, 1, Long.BYTES, Long.BYTES, r[0], r[1], r[2], (source, tag) -> "Recv")
                : receiver.receiveAndWait(room, r[0], r[1], r[2], (source, tag) -> "Recv");
        int[] m = sent[r[3]];
        assertEquals(r[3], intoArray ? array[1] : room.getLong(0), "the message received for " + Arrays.toString(r));
        assertEquals(-1, array[0], "the array's element before the one received into");
        assertEquals(m[0], op.source(), "its source");
        assertEquals(m[1], op.tag(), "its tag");
        assertEquals(8, op.byteCount(), "its length");
    }
}
