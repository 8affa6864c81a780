package dev.mpj.transport.shm;

import dev.mpj.runtime.spi.DirectReceive;
import dev.mpj.runtime.spi.DirectSource;
import dev.mpj.runtime.spi.FrameHeader;
import org.agrona.BufferUtil;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.RecordDescriptor;
import org.agrona.concurrent.ringbuffer.RingBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Ranks are threads here, each with its own transport over its own mapping of one real segment file. */
@Timeout(60)
class ShmTransportTest {
    /** Rings of 64 KiB: records of at most 8 KiB, so large frames and full rings are cheap to provoke. */
    private static final int RING = 64 * 1024;

    @TempDir
    Path dir;

    private ShmNode node(int ranks) {
        return ShmNode.create(dir, ranks, (int) ShmLayout.roomFor(ranks, RING));
    }

    /**
     * From a buffer, or from a range of an array off a word's boundary (which frames up to 64 bytes take word by
     * word): either way each frame carries its own bytes only.
     */
    @ParameterizedTest(name = "from an array: {0}")
    @ValueSource(booleans = {false, true})
    void framesArriveWholeAndInTheOrderTheyWereSent(boolean fromArray) throws Exception {
        try (ShmNode node = node(2)) {
            RecordingSink sink = new RecordingSink();
            ShmTransport receiver = node.start(1, sink);
            ShmTransport sender = node.start(0, new RecordingSink());
            int max = sender.maxRecordLength();
            int[] sizes = {0, 1, 7, 8, 9, 63, 64, 65, 100, max - FrameHeader.LENGTH, max - FrameHeader.LENGTH + 1, max,
                3 * max + 5, 17};
            int offset = 3;
            Future<?> sent = CompletableFuture.runAsync(() -> {
                for (int i = 0; i < sizes.length; i++) {
                    ByteBuffer header = Frames.header(FrameHeader.EAGER, i, sizes[i]);
                    if (fromArray) {
                        byte[] array = new byte[offset + sizes[i] + 5];
                        Frames.payload(i, sizes[i]).get(array, offset, sizes[i]);
                        sender.send(1, header, array, offset, sizes[i]);
                    } else {
                        sender.send(1, header, Frames.payload(i, sizes[i]));
                    }
                }
            });
            pollUntil(receiver, () -> sink.count() == sizes.length);
            sent.get(10, TimeUnit.SECONDS);
            List<RecordingSink.Received> got = sink.frames();
            for (int i = 0; i < sizes.length; i++) {
                RecordingSink.Received f = got.get(i);
                assertEquals(0, f.peer());
                assertEquals(i, f.tag(), "order");
                assertEquals(sizes[i], f.payload().length, "length of frame " + i);
                assertTrue(Frames.matches(f.payload(), i, 0), "contents of frame " + i);
            }
        }
    }

    @Test
    void aLongDataFrameArrivesAsDataFramesOfConsecutiveRanges() throws Exception {
        try (ShmNode node = node(2)) {
            RecordingSink sink = new RecordingSink();
            ShmTransport receiver = node.start(1, sink);
            ShmTransport sender = node.start(0, new RecordingSink());
            int length = 5 * sender.maxRecordLength() + 3;
            long start = 1_000_000;
            Future<?> sent = CompletableFuture.runAsync(() ->
                    sender.send(1, Frames.header(FrameHeader.DATA, 9, start), Frames.payload(3, length)));
            pollUntil(receiver, () -> bytesIn(sink) == length);
            sent.get(10, TimeUnit.SECONDS);
            long next = start;
            for (RecordingSink.Received f : sink.frames()) {
                assertEquals(FrameHeader.DATA, f.kind());
                assertEquals(next, f.arg(), "each range starts where the previous one ended");
                assertTrue(Frames.matches(f.payload(), 3, f.arg() - start), "contents at " + f.arg());
                next += f.payload().length;
            }
            assertTrue(sink.count() > 5, "sent in several frames");
        }
    }

    /** A node whose transport room has, past the rings, a bulk channel of {@code channel} bytes per rank. */
    private ShmNode nodeWithBulk(int ranks, int channel) {
        return ShmNode.create(dir, ranks,
                (int) ShmLayout.roomFor(ranks, RING) + ranks * (BulkChannel.HEADER_LENGTH + channel));
    }

    @Test
    void aRoomWithNothingPastTheRingsHasNoBulkChannel() {
        try (ShmNode node = node(2)) {
            assertNull(node.layout().bulk(0));
        }
    }

    @Test
    void aLongDataFrameGoesRoundTheBulkChannelInConsecutiveRanges() throws Exception {
        int channel = 256 * 1024;
        try (ShmNode node = nodeWithBulk(2, channel)) {
            RecordingSink sink = new RecordingSink();
            ShmTransport receiver = node.start(1, sink);
            ShmTransport sender = node.start(0, new RecordingSink());
            int length = 5 * channel + 3;
            long start = 1_000_000;
            Future<?> sent = CompletableFuture.runAsync(() ->
                    sender.send(1, Frames.header(FrameHeader.DATA, 9, start), Frames.payload(3, length)));
            pollUntil(receiver, () -> bytesIn(sink) == length);
            sent.get(10, TimeUnit.SECONDS);
            assertDataRanges(sink.frames(), 0, 3, start, length);
            BulkChannel bulk = node.layout().bulk(1);
            assertTrue(bulk.buffer().getLong(BulkChannel.WRITTEN_OFFSET) > length, "written through the channel");
            assertEquals(0, bulk.buffer().getInt(BulkChannel.OWNER_OFFSET), "given up");
        }
    }

    /** Rings of 256 KiB (records of at most 32 KiB, above {@link ShmTransport#BULK_MIN}) and channels of 192 KiB. */
    private static final int LARGE_RING = 256 * 1024;
    private static final int LARGE_RING_CHANNEL = 192 * 1024;
    private static final int LARGE_RING_RECORD = LARGE_RING / 8;
    /** The payload of each bulk frame of such a channel but a DATA frame's last. */
    private static final int LARGE_RING_PIECE =
            LARGE_RING_CHANNEL / 4 - FrameHeader.LENGTH - BulkChannel.PAYLOAD_ALIGNMENT;

    /**
     * Payloads around a record (the longest that fits one, the shortest that does not), a channel range (one piece,
     * and a quarter of the channel, header included), whole pieces and the channel's capacity: each arrives intact,
     * byte for byte, and it is the channel that carries exactly those longer than a record.
     */
    @ParameterizedTest
    @ValueSource(ints = {LARGE_RING_RECORD - FrameHeader.LENGTH - 1, LARGE_RING_RECORD - FrameHeader.LENGTH,
            LARGE_RING_RECORD - FrameHeader.LENGTH + 1, LARGE_RING_PIECE - 1, LARGE_RING_PIECE, LARGE_RING_PIECE + 1,
            LARGE_RING_CHANNEL / 4 - FrameHeader.LENGTH - 1, LARGE_RING_CHANNEL / 4 - FrameHeader.LENGTH,
            LARGE_RING_CHANNEL / 4 - FrameHeader.LENGTH + 1, 3 * LARGE_RING_PIECE,
            LARGE_RING_CHANNEL / 2, LARGE_RING_CHANNEL - 1, LARGE_RING_CHANNEL, LARGE_RING_CHANNEL + 1,
            3 * LARGE_RING_CHANNEL + 7})
    void aDataFrameLongerThanARecordGoesThroughTheBulkChannelIntact(int length) throws Exception {
        try (ShmNode node = ShmNode.create(dir, 2, (int) ShmLayout.roomFor(2, LARGE_RING)
                + 2 * (BulkChannel.HEADER_LENGTH + LARGE_RING_CHANNEL))) {
            RecordingSink sink = new RecordingSink();
            ShmTransport receiver = node.start(1, sink);
            ShmTransport sender = node.start(0, new RecordingSink());
            assertEquals(LARGE_RING_RECORD, sender.maxRecordLength());
            assertEquals(LARGE_RING_CHANNEL, node.layout().bulk(1).capacity());
            long start = 7_000_000;
            // twice, so the second frame starts where the first left the channel (mid-lap, or past a lap's end)
            Future<?> sent = CompletableFuture.runAsync(() -> {
                sender.send(1, Frames.header(FrameHeader.DATA, 9, start), Frames.payload(4, length));
                sender.send(1, Frames.header(FrameHeader.DATA, 9, start + length), Frames.payload(4, length, length));
            });
            pollUntil(receiver, () -> bytesIn(sink) == 2L * length);
            sent.get(10, TimeUnit.SECONDS);
            assertDataRanges(sink.frames(), 0, 4, start, 2L * length);
            long written = node.layout().bulk(1).buffer().getLong(BulkChannel.WRITTEN_OFFSET);
            assertEquals(FrameHeader.LENGTH + length > LARGE_RING_RECORD, written >= 2L * length,
                    "through the channel exactly when longer than a record (written " + written + ")");
        }
    }

    /**
     * Frames of whole pieces, after one that is not, round the channel more than once: each arrives in pieces of
     * {@link ShmTransport#BULK_PIECE}, every payload starting on a cache line of the channel and intact.
     */
    @Test
    void bulkFramesComeInWholePiecesWithPayloadsOnCacheLines() throws Exception {
        try (ShmNode node = ShmNode.create(dir, 2, 16 << 20)) { // the default room: rings and channels of 4 MiB
            int channel = node.layout().bulk(1).capacity();
            List<Integer> lengths = new ArrayList<>();
            List<Long> misalignments = new ArrayList<>();
            RecordingSink copied = new RecordingSink() {
                @Override
                public boolean onFrameInPlace(int peer, ByteBuffer frame) {
                    int payload = frame.position() + FrameHeader.LENGTH;
                    lengths.add(frame.limit() - payload);
                    misalignments.add((BufferUtil.address(frame) + payload) % BulkChannel.PAYLOAD_ALIGNMENT);
                    return false; // copied, so the contents are checked below
                }
            };
            ShmTransport receiver = node.start(1, copied);
            ShmTransport sender = node.start(0, new RecordingSink());
            int odd = 600_001; // longer than a record of the 4 MiB ring, so it too takes the channel
            int whole = 4 * ShmTransport.BULK_PIECE;
            int frames = 4;
            long total = odd + (long) frames * whole;
            Future<?> sent = CompletableFuture.runAsync(() -> {
                sender.send(1, Frames.header(FrameHeader.DATA, 9, 0), Frames.payload(2, odd));
                for (int i = 0; i < frames; i++) {
                    long at = odd + (long) i * whole;
                    sender.send(1, Frames.header(FrameHeader.DATA, 9, at), Frames.payload(2, whole, at));
                }
            });
            pollUntil(receiver, () -> bytesIn(copied) == total);
            sent.get(10, TimeUnit.SECONDS);
            assertDataRanges(copied.frames(), 0, 2, 0, total);
            assertTrue(node.layout().bulk(1).buffer().getLong(BulkChannel.WRITTEN_OFFSET) > channel, "past a lap");
            List<Integer> wholeFrames = lengths.subList(lengths.size() - 4 * frames, lengths.size());
            assertEquals(List.of(ShmTransport.BULK_PIECE), wholeFrames.stream().distinct().toList(),
                    "four equal pieces each");
            assertEquals(List.of(0L), misalignments.stream().distinct().toList(), "payloads on cache lines");
        }
    }

    @Test
    void twoSendersOfLongDataFramesToOneRankBothArriveIntact() throws Exception {
        try (ShmNode node = nodeWithBulk(3, 128 * 1024)) {
            RecordingSink sink = new RecordingSink();
            ShmTransport receiver = node.start(2, sink);
            ShmTransport[] senders = {node.start(0, new RecordingSink()), node.start(1, new RecordingSink())};
            int length = 1 << 20;
            ExecutorService pool = Executors.newFixedThreadPool(2);
            try {
                List<Future<?>> sent = new ArrayList<>();
                for (int r = 0; r < 2; r++) {
                    int rank = r;
                    sent.add(pool.submit(() -> {
                        for (int i = 0; i < 4; i++) {
                            senders[rank].send(2, Frames.header(FrameHeader.DATA, rank, (long) i * length),
                                    Frames.payload(rank, length));
                        }
                    }));
                }
                pollUntil(receiver, () -> bytesIn(sink) == 8L * length);
                for (Future<?> f : sent) {
                    f.get(10, TimeUnit.SECONDS);
                }
            } finally {
                pool.shutdownNow();
            }
            for (int rank = 0; rank < 2; rank++) {
                int peer = rank;
                List<RecordingSink.Received> mine = sink.frames().stream().filter(f -> f.peer() == peer).toList();
                long next = 0;
                for (RecordingSink.Received f : mine) {
                    assertEquals(next, f.arg(), "rank " + peer + "'s ranges in order");
                    assertTrue(Frames.matches(f.payload(), peer, f.arg() % length), "contents at " + f.arg());
                    next += f.payload().length;
                }
                assertEquals(4L * length, next);
            }
        }
    }

    @Test
    void aSenderBlockedOnTheBulkChannelOfADeadPeerGivesUpAndReportsIt() throws Exception {
        int channel = 128 * 1024;
        try (ShmNode node = nodeWithBulk(2, channel)) {
            RecordingSink sink = new RecordingSink();
            ShmTransport sender = node.start(0, sink);
            node.layout().attach(1, deadPid());
            // returns although nobody will ever read
            sender.send(1, Frames.header(FrameHeader.DATA, 1, 0), Frames.payload(1, 4 * channel));
            assertTrue(sink.lost().containsKey(1));
            assertEquals(0, node.layout().bulk(1).buffer().getInt(BulkChannel.OWNER_OFFSET), "given up");
        }
    }

    @Test
    void aNoticeOfABulkFrameOutsideTheChannelReportsItsSenderLost() throws Exception {
        try (ShmNode node = nodeWithBulk(2, 128 * 1024)) {
            RecordingSink sink = new RecordingSink();
            ShmTransport receiver = node.start(1, sink);
            ByteBuffer notice = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN).putLong(0, 100_000)
                    .putInt(8, 64 * 1024);
            assertTrue(node.layout().ring(1).write(RecordType.of(0, RecordType.BULK), new UnsafeBuffer(notice), 0, 12));
            pollUntil(receiver, () -> sink.lost().containsKey(0));
            assertTrue(sink.lost().get(0).getMessage().contains("rank 0"), sink.lost().get(0).getMessage());
            assertEquals(0, sink.count());
        }
    }

    private static void assertDataRanges(List<RecordingSink.Received> frames, int peer, int seed, long start,
                                         long length) {
        long next = start;
        for (RecordingSink.Received f : frames) {
            assertEquals(peer, f.peer());
            assertEquals(FrameHeader.DATA, f.kind());
            assertEquals(next, f.arg(), "each range starts where the previous one ended");
            assertTrue(Frames.matches(f.payload(), seed, f.arg() - start), "contents at " + f.arg());
            next += f.payload().length;
        }
        assertEquals(start + length, next);
    }

    @Test
    void framesTheSinkTakesInPlaceAreNotCopiedToIt() throws Exception {
        try (ShmNode node = node(2)) {
            List<byte[]> inPlace = new ArrayList<>();
            RecordingSink copied = new RecordingSink() {
                @Override
                public boolean onFrameInPlace(int peer, ByteBuffer frame) {
                    if (FrameHeader.kind(frame) != FrameHeader.DATA) {
                        return false;
                    }
                    byte[] payload = new byte[frame.remaining() - FrameHeader.LENGTH];
                    frame.get(frame.position() + FrameHeader.LENGTH, payload);
                    inPlace.add(payload);
                    return true;
                }
            };
            ShmTransport receiver = node.start(1, copied);
            ShmTransport sender = node.start(0, new RecordingSink());
            sender.send(1, Frames.header(FrameHeader.DATA, 1, 0), Frames.payload(5, 100));
            sender.send(1, Frames.header(FrameHeader.EAGER, 2, 0), Frames.payload(6, 100));
            pollUntil(receiver, () -> copied.count() == 1);
            assertEquals(1, inPlace.size());
            assertTrue(Frames.matches(inPlace.get(0), 5, 0));
            assertEquals(FrameHeader.EAGER, copied.frames().get(0).kind());
        }
    }

    @Test
    void aSinkThatStopsTheReadingFindsTheNextFramesInTheRingAtTheNextPoll() throws Exception {
        try (ShmNode node = node(2)) {
            OneAtATimeSink oneAtATime = new OneAtATimeSink(FrameHeader::tag);
            List<Long> taken = oneAtATime.taken;
            ShmTransport receiver = node.start(1, oneAtATime);
            ShmTransport sender = node.start(0, new RecordingSink());
            for (int tag = 0; tag < 3; tag++) {
                sender.send(1, Frames.header(FrameHeader.EAGER, tag, 8), Frames.payload(tag, 8));
            }
            assertEquals(1, receiver.poll());
            assertEquals(List.of(0L), taken);
            assertEquals(1, receiver.poll());
            assertEquals(1, receiver.poll());
            assertEquals(List.of(0L, 1L, 2L), taken, "every frame in its turn, none lost");
            assertEquals(0, receiver.poll());
        }
    }

    @Test
    void theRoomOfFramesTakenOneAtATimeGoesBackOnceAReadReachesTheEnd() throws Exception {
        try (ShmNode node = node(2)) {
            ShmLayout layout = node.layout();
            OneAtATimeSink oneAtATime = new OneAtATimeSink(FrameHeader::tag);
            ShmTransport receiver = node.start(1, oneAtATime);
            ShmTransport sender = node.start(0, new RecordingSink());
            for (int tag = 0; tag < 3; tag++) {
                sender.send(1, Frames.header(FrameHeader.EAGER, tag, 8), Frames.payload(tag, 8));
            }
            long written = layout.ring(1).producerPosition();
            for (int i = 0; i < 3; i++) {
                assertEquals(1, receiver.poll());
                assertEquals(0, layout.ring(1).consumerPosition(), "a frame taken does not move the head");
            }
            assertEquals(0, receiver.poll());
            assertEquals(written, layout.ring(1).consumerPosition(), "a read that finds nothing gives the room back");
        }
    }

    @Test
    void aReadThatStopsAtALongFrameKeepsItsRoomUpToAQuarterOfTheRing() throws Exception {
        int ring = 1 << 20;
        int length = InboundReader.COMMIT_BYTES;
        try (ShmNode node = ShmNode.create(dir, 2, (int) ShmLayout.roomFor(2, ring))) {
            ShmLayout layout = node.layout();
            OneAtATimeSink oneAtATime = new OneAtATimeSink(FrameHeader::tag);
            ShmTransport receiver = node.start(1, oneAtATime);
            ShmTransport sender = node.start(0, new RecordingSink());
            int frames = ring / 4 / length; // each record a little longer than its payload: the last one passes a quarter
            for (int tag = 0; tag < frames; tag++) {
                sender.send(1, Frames.header(FrameHeader.EAGER, tag, length), Frames.payload(tag, length));
            }
            long written = layout.ring(1).producerPosition();
            for (int i = 0; i < frames - 1; i++) {
                assertEquals(1, receiver.poll());
                assertEquals(0, layout.ring(1).consumerPosition(),
                        "a frame of " + length + " bytes taken, less than a quarter of the ring held: no zeroing yet");
            }
            assertEquals(1, receiver.poll());
            assertEquals(written, layout.ring(1).consumerPosition(), "a quarter of the ring held goes back at once");
            sender.send(1, Frames.header(FrameHeader.EAGER, frames, length), Frames.payload(frames, length));
            assertEquals(1, receiver.poll());
            assertEquals(0, receiver.poll());
            assertEquals(layout.ring(1).producerPosition(), layout.ring(1).consumerPosition(),
                    "a read that finds nothing gives the room back");
            for (int tag = 0; tag <= frames; tag++) {
                assertEquals(tag, (long) oneAtATime.taken.get(tag), "frame " + tag);
            }
        }
    }

    @Test
    void framesTakenOneAtATimeWhileTheSenderWaitsForRoomGoRoundTheRingInOrder() throws Exception {
        try (ShmNode node = node(2)) {
            int count = 20_000; // records of 48 bytes: the 64 KiB ring wraps about 15 times, with padding
            OneAtATimeSink oneAtATime =
                    new OneAtATimeSink(frame -> frame.getLong(frame.position() + FrameHeader.LENGTH));
            List<Long> taken = oneAtATime.taken;
            ShmTransport receiver = node.start(1, oneAtATime);
            ShmTransport sender = node.start(0, new RecordingSink());
            Future<?> sent = CompletableFuture.runAsync(() -> {
                ByteBuffer payload = ByteBuffer.allocate(8).order(java.nio.ByteOrder.LITTLE_ENDIAN);
                for (long i = 0; i < count; i++) {
                    sender.send(1, Frames.header(FrameHeader.EAGER, 1, 8), payload.putLong(0, i));
                }
            });
            pollUntil(receiver, () -> taken.size() == count);
            sent.get(10, TimeUnit.SECONDS);
            for (int i = 0; i < count; i++) {
                assertEquals(i, (long) taken.get(i), "frame " + i);
            }
        }
    }

    /**
     * A direct take gives the room it has read back every {@link InboundReader#COMMIT_BYTES} (a quarter of a
     * smaller ring) and leaves that record for the general read, the way it leaves an empty ring: the frames
     * before it are taken directly, that one is read by the next poll, the ones after it directly again, all in
     * the order sent.
     */
    @Test
    void theDirectTakeLeavesTheRecordWhereItGivesRoomBackToTheNextPoll() throws Exception {
        int commitBytes = Math.min(InboundReader.COMMIT_BYTES, RING / 4);
        int before = (commitBytes + RECORD_OF_8 - 1) / RECORD_OF_8; // records read when the room is due back
        try (ShmNode node = node(2)) {
            ShmLayout layout = node.layout();
            OneAtATimeSink polled = new OneAtATimeSink(frame -> frame.getLong(frame.position() + FrameHeader.LENGTH));
            ShmTransport receiver = node.start(1, polled);
            ShmTransport sender = node.start(0, new RecordingSink());
            DirectSource source = receiver.directSource();
            DirectReceive receive = new DirectReceive();
            receive.ask(7, 0, 1, 8);
            assertEquals(-1, source.takeDirect(receive), "an empty ring");
            ByteBuffer payload = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
            for (long i = 0; i < before + 2; i++) {
                sender.send(1, Frames.header(FrameHeader.EAGER, 1, 8), payload.putLong(0, i));
            }
            for (int i = 0; i < before; i++) {
                int at = source.takeDirect(receive);
                assertTrue(at >= 0, "frame " + i + " taken directly");
                assertEquals(i, source.memory().getLong(at), "frame " + i);
                assertEquals(0, layout.ring(1).consumerPosition(), "room not yet due back at frame " + i);
            }
            assertEquals(-1, source.takeDirect(receive), "the record where the room goes back is left");
            assertEquals((long) before * RECORD_OF_8, layout.ring(1).consumerPosition(), "the room read went back");
            assertEquals(1, receiver.poll());
            assertEquals(List.of((long) before), polled.taken, "the record left goes to the next poll, in its turn");
            int at = source.takeDirect(receive);
            assertEquals(before + 1, source.memory().getLong(at), "the frame after it taken directly");
            assertEquals(8, receive.length());
            assertEquals(0, receive.source());
            assertEquals(1, receive.tag());
            assertEquals(-1, source.takeDirect(receive), "an empty ring again");
            assertEquals(0, receiver.poll());
        }
    }

    /**
     * A direct take reads a record's header words once and leaves the padding at the ring's end to the general read,
     * as it leaves an empty ring: the frame after the padding is read by the next poll, in its turn, and the one
     * after that taken directly again.
     */
    @Test
    void theDirectTakeLeavesThePaddingAtTheRingsEndToTheNextPoll() throws Exception {
        try (ShmNode node = node(2)) {
            OneAtATimeSink polled = new OneAtATimeSink(frame -> frame.getLong(frame.position() + FrameHeader.LENGTH));
            ShmTransport receiver = node.start(1, polled);
            ShmTransport sender = node.start(0, new RecordingSink());
            DirectSource source = receiver.directSource();
            DirectReceive receive = new DirectReceive();
            ByteBuffer payload = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
            int fit = RING / RECORD_OF_8;
            for (long i = 0; i < fit; i++) {
                sender.send(1, Frames.header(FrameHeader.EAGER, 1, 8), payload.putLong(0, i));
            }
            pollUntil(receiver, () -> polled.taken.size() == fit);
            assertEquals(0, receiver.poll()); // the end of what was written: all the room goes back
            for (long i = fit; i < fit + 2; i++) {
                sender.send(1, Frames.header(FrameHeader.EAGER, 1, 8), payload.putLong(0, i));
            }
            assertEquals(RING + 2L * RECORD_OF_8, node.layout().ring(1).producerPosition(), "padded, then at 0");
            receive.ask(7, 0, 1, 8);
            assertEquals(-1, source.takeDirect(receive), "the padding is left");
            assertEquals(1, receiver.poll(), "the poll skips the padding and reads the frame after it");
            assertEquals(fit, (long) polled.taken.get(fit), "the frame after the padding, in its turn");
            int at = source.takeDirect(receive);
            assertTrue(at >= 0, "the next frame taken directly");
            assertEquals(fit + 1, source.memory().getLong(at));
            assertEquals(-1, source.takeDirect(receive), "an empty ring");
        }
    }

    /**
     * A receiver that takes each frame directly when it can and polls when the take declines (an empty ring, the
     * room going back, the padding at each wrap) gets every frame once, in the order sent, while the sender waits
     * for room.
     */
    @Test
    void directTakesAndPollsTogetherGoRoundTheRingInOrder() throws Exception {
        try (ShmNode node = node(2)) {
            int count = 20_000; // the 64 KiB ring wraps about 15 times, with padding
            OneAtATimeSink polled = new OneAtATimeSink(frame -> frame.getLong(frame.position() + FrameHeader.LENGTH));
            List<Long> taken = polled.taken;
            ShmTransport receiver = node.start(1, polled);
            ShmTransport sender = node.start(0, new RecordingSink());
            DirectSource source = receiver.directSource();
            DirectReceive receive = new DirectReceive();
            receive.ask(7, 0, 1, 8);
            Future<?> sent = CompletableFuture.runAsync(() -> {
                ByteBuffer payload = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
                for (long i = 0; i < count; i++) {
                    sender.send(1, Frames.header(FrameHeader.EAGER, 1, 8), payload.putLong(0, i));
                }
            });
            int direct = 0;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (taken.size() < count && System.nanoTime() < deadline) {
                int at = source.takeDirect(receive);
                if (at >= 0) {
                    taken.add(source.memory().getLong(at));
                    direct++;
                } else {
                    receiver.poll();
                }
            }
            sent.get(10, TimeUnit.SECONDS);
            assertEquals(count, taken.size());
            for (int i = 0; i < count; i++) {
                assertEquals(i, (long) taken.get(i), "frame " + i);
            }
            assertTrue(direct > count / 2, "most frames taken directly: " + direct);
        }
    }

    /** Bytes of the ring record of a frame with 8 payload bytes. */
    private static final int RECORD_OF_8 = RecordDescriptor.HEADER_LENGTH + FrameHeader.LENGTH + 8;

    @Test
    void oneReadSkipsThePaddingAtTheRingsEndAndTakesTheFramesAfterIt() throws Exception {
        try (ShmNode node = node(2)) {
            RecordingSink sink = new RecordingSink();
            ShmTransport receiver = node.start(1, sink);
            ShmTransport sender = node.start(0, new RecordingSink());
            int fit = fillTheRingUpToItsEnd(sender, receiver, sink);
            for (int i = fit; i < fit + 2; i++) {
                sender.send(1, Frames.header(FrameHeader.EAGER, i, 8), Frames.payload(i, 8));
            }
            assertEquals(RING + 2L * RECORD_OF_8, node.layout().ring(1).producerPosition(), "padded, then at 0");
            assertEquals(2, receiver.poll(), "the padding is skipped, not counted, and the read goes on");
            assertFramesInOrder(sink, fit + 2);
        }
    }

    @Test
    void aPaddingRecordStillBeingWrittenIsNotSkipped() throws Exception {
        try (ShmNode node = node(2)) {
            RecordingSink sink = new RecordingSink();
            ShmTransport receiver = node.start(1, sink);
            ShmTransport sender = node.start(0, new RecordingSink());
            int fit = fillTheRingUpToItsEnd(sender, receiver, sink);
            // as Agrona begins its padding: the length negated, then the type, the length not yet made positive
            AtomicBuffer ring = node.layout().ring(1).buffer();
            int end = fit * RECORD_OF_8;
            ring.putIntRelease(RecordDescriptor.lengthOffset(end), end - RING);
            ring.putInt(RecordDescriptor.typeOffset(end), RingBuffer.PADDING_MSG_TYPE_ID);
            assertEquals(0, receiver.poll());
            assertEquals(end, node.layout().ring(1).consumerPosition(), "nothing read, nothing skipped");
            sender.send(1, Frames.header(FrameHeader.EAGER, fit, 8), Frames.payload(fit, 8));
            assertEquals(1, receiver.poll(), "the finished padding is skipped and the frame after it read");
            assertFramesInOrder(sink, fit + 1);
        }
    }

    /**
     * Sends as many 8-byte frames as fit before the ring's end (the next leaves padding there) and reads them all,
     * giving their room back; returns how many.
     */
    private static int fillTheRingUpToItsEnd(ShmTransport sender, ShmTransport receiver, RecordingSink sink) {
        int fit = RING / RECORD_OF_8;
        for (int i = 0; i < fit; i++) {
            sender.send(1, Frames.header(FrameHeader.EAGER, i, 8), Frames.payload(i, 8));
        }
        pollUntil(receiver, () -> sink.count() == fit);
        assertEquals(0, receiver.poll()); // reaches the end of what was written: the room goes back
        return fit;
    }

    private static void assertFramesInOrder(RecordingSink sink, int count) {
        List<RecordingSink.Received> got = sink.frames();
        assertEquals(count, got.size());
        for (int i = 0; i < count; i++) {
            assertEquals(i, got.get(i).tag(), "order");
            assertTrue(Frames.matches(got.get(i).payload(), i, 0), "contents of frame " + i);
        }
    }

    @Test
    void aFrameThatCameInPiecesIsOfferedInPlaceInItsTurn() throws Exception {
        try (ShmNode node = node(2)) {
            List<Integer> offered = new ArrayList<>();
            RecordingSink refusing = new RecordingSink() {
                @Override
                public boolean onFrameInPlace(int peer, ByteBuffer frame) {
                    offered.add(FrameHeader.tag(frame));
                    return false;
                }
            };
            ShmTransport receiver = node.start(1, refusing);
            ShmTransport sender = node.start(0, new RecordingSink());
            int longFrame = 3 * sender.maxRecordLength() + 5;
            Future<?> sent = CompletableFuture.runAsync(() -> {
                sender.send(1, Frames.header(FrameHeader.EAGER, 1, longFrame), Frames.payload(1, longFrame));
                sender.send(1, Frames.header(FrameHeader.EAGER, 2, 10), Frames.payload(2, 10));
            });
            pollUntil(receiver, () -> refusing.count() == 2);
            sent.get(10, TimeUnit.SECONDS);
            assertEquals(List.of(1, 2), offered, "the sink sees every frame in place first, in order");
            assertEquals(longFrame, refusing.frames().get(0).payload().length);
        }
    }

    @Test
    void theRoomOfReadRecordsGoesBackToSendersDuringALongRead() throws Exception {
        try (ShmNode node = node(2)) {
            ShmLayout layout = node.layout();
            List<Long> headWhenOffered = new ArrayList<>();
            RecordingSink sink = new RecordingSink() {
                @Override
                public boolean onFrameInPlace(int peer, ByteBuffer frame) {
                    headWhenOffered.add(layout.ring(1).consumerPosition());
                    return true;
                }
            };
            ShmTransport receiver = node.start(1, sink);
            ShmTransport sender = node.start(0, new RecordingSink());
            int frames = 6;
            int payload = sender.maxRecordLength() - FrameHeader.LENGTH;
            for (int i = 0; i < frames; i++) {
                sender.send(1, Frames.header(FrameHeader.DATA, i, 0), Frames.payload(i, payload));
            }
            assertEquals(frames, receiver.poll(), "one read takes every record");
            assertEquals(0, headWhenOffered.get(0));
            assertTrue(headWhenOffered.get(frames - 1) > 0,
                    "the first records' room was given back before the last was read: " + headWhenOffered);
        }
    }

    private static long bytesIn(RecordingSink sink) {
        long n = 0;
        for (RecordingSink.Received f : sink.frames()) {
            n += f.payload().length;
        }
        return n;
    }

    @Test
    void eachSendersOrderHoldsWhenSeveralSendersShareARing() throws Exception {
        int senders = 3;
        int frames = 60;
        try (ShmNode node = node(senders + 1)) {
            RecordingSink sink = new RecordingSink();
            ShmTransport receiver = node.start(0, sink);
            ExecutorService pool = Executors.newFixedThreadPool(senders);
            try {
                for (int s = 1; s <= senders; s++) {
                    ShmTransport t = node.start(s, new RecordingSink());
                    int max = t.maxRecordLength();
                    pool.submit(() -> {
                        for (int i = 0; i < frames; i++) {
                            int length = (i % 3) * max; // 0, one record and a bit, two records and a bit
                            t.send(0, Frames.header(FrameHeader.EAGER, i, length), Frames.payload(i, length));
                        }
                        return null;
                    });
                }
                pollUntil(receiver, () -> sink.count() == senders * frames);
            } finally {
                pool.shutdownNow();
            }
            int[] next = new int[senders + 1];
            for (RecordingSink.Received f : sink.frames()) {
                assertEquals(next[f.peer()]++, f.tag(), "order of rank " + f.peer());
                assertTrue(Frames.matches(f.payload(), f.tag(), 0), "contents of a frame of rank " + f.peer());
            }
        }
    }

    @Test
    void aFullRingMakesTheSenderWaitUntilTheReceiverReads() throws Exception {
        try (ShmNode node = node(2)) {
            RecordingSink sink = new RecordingSink();
            ShmTransport receiver = node.start(1, sink);
            ShmTransport sender = node.start(0, new RecordingSink());
            int frames = 4 * RING / 1024;
            CompletableFuture<?> sent = CompletableFuture.runAsync(() -> {
                for (int i = 0; i < frames; i++) {
                    sender.send(1, Frames.header(FrameHeader.EAGER, i, 1000), Frames.payload(i, 1000));
                }
            });
            Thread.sleep(300);
            assertFalse(sent.isDone(), "four rings' worth cannot be in the ring while nobody reads");
            pollUntil(receiver, () -> sink.count() == frames);
            sent.get(10, TimeUnit.SECONDS);
            assertEquals(frames - 1, sink.frames().get(frames - 1).tag());
        }
    }

    @Test
    void twoSendersBlockedOnEachOthersFullRingsBothComplete() throws Exception {
        try (ShmNode node = node(2)) {
            RecordingSink[] sinks = {new RecordingSink(), new RecordingSink()};
            ShmTransport[] t = {node.start(0, sinks[0]), node.start(1, sinks[1])};
            int frames = 8 * RING / 4000;
            ExecutorService pool = Executors.newFixedThreadPool(2);
            try {
                Future<?>[] done = new Future<?>[2];
                for (int r = 0; r < 2; r++) {
                    int rank = r;
                    done[r] = pool.submit(() -> {
                        // nobody polls before sending everything: only reading while blocked lets both finish
                        for (int i = 0; i < frames; i++) {
                            t[rank].send(1 - rank, Frames.header(FrameHeader.EAGER, i, 4000), Frames.payload(i, 4000));
                        }
                        pollUntil(t[rank], () -> sinks[rank].count() == frames);
                        return null;
                    });
                }
                done[0].get(20, TimeUnit.SECONDS);
                done[1].get(20, TimeUnit.SECONDS);
            } finally {
                pool.shutdownNow();
            }
        }
    }

    @Test
    void aPeerWhoseProcessDiedIsReportedLostToAWaitingRank() throws Exception {
        try (ShmNode node = node(2)) {
            RecordingSink sink = new RecordingSink();
            ShmTransport waiting = node.start(0, sink);
            node.layout().attach(1, deadPid());
            pollUntil(waiting, () -> sink.lost().containsKey(1));
            assertTrue(sink.lost().get(1).getMessage().contains("rank 1"), sink.lost().get(1).getMessage());
        }
    }

    @Test
    void aSenderBlockedOnTheRingOfADeadPeerGivesUpAndReportsIt() throws Exception {
        try (ShmNode node = node(2)) {
            RecordingSink sink = new RecordingSink();
            ShmTransport sender = node.start(0, sink);
            node.layout().attach(1, deadPid());
            for (int i = 0; i < 2 * RING / 1000; i++) { // returns although nobody will ever read
                sender.send(1, Frames.header(FrameHeader.EAGER, i, 1000), Frames.payload(i, 1000));
            }
            assertTrue(sink.lost().containsKey(1));
        }
    }

    @Test
    void aPeerThatClosedInOrderIsNotReportedLost() throws Exception {
        try (ShmNode node = node(2)) {
            RecordingSink sink = new RecordingSink();
            ShmTransport waiting = node.start(0, sink);
            ShmLayout layout = node.layout();
            layout.attach(1, deadPid());
            layout.markClosed(1);
            long end = System.nanoTime() + 3 * PeerWatch.INTERVAL_NANOS;
            while (System.nanoTime() - end < 0) {
                waiting.poll();
                Thread.onSpinWait();
            }
            assertTrue(sink.lost().isEmpty(), sink.lost().toString());
        }
    }

    @Test
    void aTransportRoomTooSmallForTheRingsIsRefusedWithTheSizeNeeded() {
        try (ShmNode node = ShmNode.create(dir, 4, 4096)) {
            IOException e = assertThrows(IOException.class, () -> node.start(0, new RecordingSink()));
            assertTrue(e.getMessage().contains("mpj.shmTransportBytes >= "), e.getMessage());
        }
    }

    @Test
    void aPeerOnAnotherNodeIsRefused() throws Exception {
        try (ShmNode node = node(2)) {
            ShmTransport t = node.start(0, new RecordingSink());
            assertThrows(IllegalArgumentException.class, () -> t.send(2, FrameHeader.allocate(), ByteBuffer.allocate(0)));
            assertThrows(IllegalArgumentException.class, () -> t.addPeer(5, new byte[0]));
        }
    }

    /** The pid of a process that has exited and been reaped. */
    static long deadPid() throws IOException, InterruptedException {
        Process p = new ProcessBuilder("true").start();
        p.waitFor();
        return p.pid();
    }

    static void pollUntil(ShmTransport t, BooleanSupplier done) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!done.getAsBoolean()) {
            if (t.poll() == 0) {
                if (System.nanoTime() - deadline > 0) {
                    throw new AssertionError("no progress");
                }
                Thread.yield();
            }
        }
    }
}
