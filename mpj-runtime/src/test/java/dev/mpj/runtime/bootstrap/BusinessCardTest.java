package dev.mpj.runtime.bootstrap;

import dev.mpj.runtime.pmi.PmiClient;
import dev.mpj.runtime.pmi.SingletonPmiClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BusinessCardTest {
    private static byte[] address(int length) {
        byte[] a = new byte[length];
        for (int i = 0; i < length; i++) {
            a[i] = (byte) (i * 37 + 11);
        }
        return a;
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 23, 300, BusinessCard.MAX_ADDRESS_LENGTH})
    void encodeThenDecodeGivesTheSameCardForAnyAddressLength(int length) {
        BusinessCard card = new BusinessCard(7, BusinessCard.FLAG_NODE_ROOT, address(length));
        byte[] bytes = card.encode();
        assertEquals(card.encodedLength(), bytes.length);
        assertEquals(BusinessCard.encodedLength(length), bytes.length);
        BusinessCard back = BusinessCard.decode(bytes);
        assertEquals(card, back);
        assertEquals(7, back.nodeId());
        assertTrue(back.hasFlag(BusinessCard.FLAG_NODE_ROOT));
        assertArrayEquals(address(length), back.address());
    }

    @Test
    void cardsOfDifferentAddressLengthsHaveDifferentEncodedLengths() {
        assertEquals(BusinessCard.HEADER_LENGTH + 23, new BusinessCard(0, 0, address(23)).encodedLength());
        assertEquals(BusinessCard.HEADER_LENGTH + 5, new BusinessCard(0, 0, address(5)).encodedLength());
    }

    @Test
    void decodeReadsACardInsideALargerBuffer() {
        BusinessCard card = new BusinessCard(3, 0, address(23));
        byte[] slot = new byte[100];
        Arrays.fill(slot, (byte) 0x55);
        System.arraycopy(card.encode(), 0, slot, 10, card.encodedLength());
        assertEquals(card, BusinessCard.decode(slot, 10, card.encodedLength()));
    }

    @Test
    void cardRoundTripsThroughPmiAsHex() {
        PmiClient pmi = new SingletonPmiClient();
        BusinessCard shortCard = new BusinessCard(1, 0, address(23));
        BusinessCard longCard = new BusinessCard(2, 0, address(900)); // more than one PMI value: segmented
        shortCard.publish(pmi, "card-0");
        longCard.publish(pmi, "card-1");
        pmi.barrier();
        assertTrue(pmi.get("card-0").matches("[0-9a-f]+"), "hex on the wire");
        assertEquals(shortCard, BusinessCard.fetch(pmi, "card-0"));
        assertEquals(longCard, BusinessCard.fetch(pmi, "card-1"));
        assertNull(BusinessCard.fetch(pmi, "card-2"));
    }

    @Test
    void truncatedCardIsRejected() {
        byte[] bytes = new BusinessCard(1, 0, address(23)).encode();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BusinessCard.decode(Arrays.copyOf(bytes, bytes.length - 1)));
        assertTrue(e.getMessage().contains("announces an address of 23 bytes"), e.getMessage());
    }

    @Test
    void trailingBytesAreRejected() {
        byte[] bytes = new BusinessCard(1, 0, address(23)).encode();
        assertThrows(IllegalArgumentException.class, () -> BusinessCard.decode(Arrays.copyOf(bytes, bytes.length + 1)));
    }

    @Test
    void shorterThanAHeaderIsRejected() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BusinessCard.decode(new byte[5]));
        assertTrue(e.getMessage().contains("at least 8 bytes"), e.getMessage());
    }

    @Test
    void unknownFormatIsRejected() {
        byte[] bytes = new BusinessCard(1, 0, address(2)).encode();
        bytes[0] = 9;
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> BusinessCard.decode(bytes));
        assertTrue(e.getMessage().contains("format 9"), e.getMessage());
    }

    @Test
    void negativeNodeIdIsRejected() {
        byte[] bytes = new BusinessCard(1, 0, address(2)).encode();
        bytes[7] = (byte) 0x80;
        assertThrows(IllegalArgumentException.class, () -> BusinessCard.decode(bytes));
    }

    @Test
    void outOfRangeFieldsCannotBeEncoded() {
        assertThrows(IllegalArgumentException.class, () -> new BusinessCard(-1, 0, address(1)));
        assertThrows(IllegalArgumentException.class, () -> new BusinessCard(0, 0x100, address(1)));
        assertThrows(IllegalArgumentException.class,
                () -> new BusinessCard(0, 0, address(BusinessCard.MAX_ADDRESS_LENGTH + 1)));
    }

    @Test
    void theCardKeepsItsOwnCopyOfTheAddress() {
        byte[] a = address(4);
        BusinessCard card = new BusinessCard(0, 0, a);
        a[0] = 0;
        card.address()[1] = 0;
        assertArrayEquals(address(4), card.address());
        assertFalse(card.hasFlag(BusinessCard.FLAG_NODE_ROOT));
    }
}
