package dev.mpj.runtime.pmi.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class Pmi2MessageTest {
    @ParameterizedTest
    @ValueSource(strings = {"   113", "113   ", " 113  ", "000113"})
    void lengthFieldIsReadWhateverTheSpacePadding(String field) {
        assertEquals(113, Pmi2Message.parseLength(field));
    }

    @ParameterizedTest
    @ValueSource(strings = {"      ", "12x456", "-00012", "  0x10"})
    void lengthFieldThatIsNotDigitsIsRejected(String field) {
        assertThrows(PmiException.class, () -> Pmi2Message.parseLength(field));
    }

    @Test
    void lengthBeyondTheBodyLimitIsRejected() {
        PmiException e = assertThrows(PmiException.class,
                () -> Pmi2Message.parseLength(Integer.toString(Pmi2Message.MAX_BODY + 1)));
        assertTrue(e.getMessage().contains("limit"), e.getMessage());
    }

    @Test
    void encodeLeftAlignsTheLengthAndEndsEveryPairWithSemicolon() {
        byte[] frame = Pmi2Message.of("kvs-put", "key", "k", "value", "v").encode();
        assertEquals("26    cmd=kvs-put;key=k;value=v;", new String(frame, StandardCharsets.US_ASCII));
    }

    @Test
    void parseMatchesFieldsByKeyAndKeepsEqualsInValues() {
        Pmi2Message m = Pmi2Message.parse("cmd=kvs-get-response;rc=0;found=TRUE;value=a=b;");
        assertEquals("kvs-get-response", m.command());
        assertEquals("a=b", m.foundValue());
    }

    @Test
    void foundFalseOrNonZeroRcIsNotFound() {
        assertNull(Pmi2Message.parse("cmd=kvs-get-response;found=FALSE;rc=0;").foundValue());
        assertNull(Pmi2Message.parse("cmd=kvs-get-response;rc=1;").foundValue());
        assertNull(Pmi2Message.parse("cmd=kvs-get-response;rc=-1;found=TRUE;value=x;").foundValue());
    }

    @Test
    void bodyWithoutLeadingCmdIsRejected() {
        assertThrows(PmiException.class, () -> Pmi2Message.parse("key=k;cmd=kvs-get;"));
    }

    @Test
    void pairWithoutEqualsIsRejected() {
        assertThrows(PmiException.class, () -> Pmi2Message.parse("cmd=kvs-get;key;"));
    }

    @Test
    void repeatedKeyIsRejected() {
        assertThrows(PmiException.class, () -> Pmi2Message.parse("cmd=kvs-get;key=a;key=b;"));
    }

    @Test
    void controlCharacterIsRejected() {
        assertThrows(PmiException.class, () -> Pmi2Message.parse("cmd=kvs-get;key=a\nb;"));
    }

    @Test
    void semicolonInAValueCannotBeEncoded() {
        assertThrows(PmiException.class, () -> Pmi2Message.of("kvs-put", "key", "k", "value", "a;b").encode());
    }

    @Test
    void oversizedMessageCannotBeEncoded() {
        String value = "x".repeat(Pmi2Message.MAX_BODY);
        assertThrows(PmiException.class, () -> Pmi2Message.of("kvs-put", "key", "k", "value", value).encode());
    }
}
