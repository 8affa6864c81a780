package dev.mpj.runtime.pmi.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class Pmi1MessageTest {
    @Test
    void hydraAndSlurmReplyOrdersParseToTheSameFields() {
        Pmi1Message hydra = Pmi1Message.parse("cmd=response_to_init pmi_version=1 pmi_subversion=1 rc=0");
        Pmi1Message slurm = Pmi1Message.parse("cmd=response_to_init rc=0 pmi_version=1 pmi_subversion=1");
        assertEquals(hydra.fields(), slurm.fields());
        assertEquals("response_to_init", slurm.command());
        assertEquals("1", slurm.require("pmi_version"));
    }

    @Test
    void hydraAndSlurmMaxesGiveTheSameLimits() {
        Pmi1Message hydra = Pmi1Message.parse("cmd=maxes kvsname_max=256 keylen_max=64 vallen_max=1024");
        Pmi1Message slurm = Pmi1Message.parse("cmd=maxes rc=0 kvsname_max=256 keylen_max=64 vallen_max=1024");
        for (String key : new String[] {"kvsname_max", "keylen_max", "vallen_max"}) {
            assertEquals(hydra.requireInt(key), slurm.requireInt(key), key);
        }
        assertEquals(hydra.rc(), slurm.rc());
    }

    @Test
    void missingRcMeansSuccess() {
        assertEquals(0, Pmi1Message.parse("cmd=barrier_out").rc());
        assertEquals(-1, Pmi1Message.parse("cmd=get_result rc=-1 msg=key_k_not_found value=unknown").rc());
    }

    @Test
    void valueMayContainEquals() {
        assertEquals("a=b=c", Pmi1Message.parse("cmd=get_result rc=0 msg=success value=a=b=c").get("value"));
    }

    @Test
    void valueMayBeEmpty() {
        Pmi1Message m = Pmi1Message.parse("cmd=get_result rc=0 value=");
        assertEquals("", m.get("value"));
        assertNull(m.get("msg"));
    }

    @ParameterizedTest(name = "rejects \"{0}\"")
    @ValueSource(strings = {
        "",
        "   ",
        "value=1 cmd=get_result",
        "cmd=get_result rc",
        "cmd=get_result =x",
        "cmd=get_result rc=0 rc=1",
        "cmd=get_result value=caf\u00e9",
        "cmd=get_result value=a\tb",
        "cmd=get_result value=a\rb",
    })
    void rejectsMalformedLines(String line) {
        assertThrows(PmiException.class, () -> Pmi1Message.parse(line));
    }

    @Test
    void rejectsLinesOf1024CharactersOrMore() {
        String prefix = "cmd=get_result value=";
        assertEquals(1023, Pmi1Message.parse(prefix + "x".repeat(1023 - prefix.length())).toString().length());
        assertThrows(PmiException.class, () -> Pmi1Message.parse(prefix + "x".repeat(1024 - prefix.length())));
    }

    @Test
    void encodesOneLineWithItsNewline() {
        byte[] line = Pmi1Message.of("put", "kvsname", "kvs_1", "key", "k", "value", "a=b").encode();
        assertArrayEquals("cmd=put kvsname=kvs_1 key=k value=a=b\n".getBytes(StandardCharsets.US_ASCII), line);
    }

    @Test
    void encodeRoundTripsThroughParse() {
        Pmi1Message m = Pmi1Message.of("get", "kvsname", "kvs_1", "key", "addr-3");
        String line = new String(m.encode(), StandardCharsets.US_ASCII);
        assertEquals(Map.of("cmd", "get", "kvsname", "kvs_1", "key", "addr-3"),
                Pmi1Message.parse(line.substring(0, line.length() - 1)).fields());
    }

    @ParameterizedTest(name = "rejects value \"{0}\"")
    @ValueSource(strings = {"has space", "two\nlines", "cr\r", "caf\u00e9"})
    void encodeRejectsValuesThatWouldBreakTheFraming(String value) {
        assertThrows(PmiException.class, () -> Pmi1Message.of("put", "key", "k", "value", value).encode());
    }

    @Test
    void encodeRejectsKeysWithEquals() {
        assertThrows(PmiException.class, () -> Pmi1Message.of("put", "a=b", "v").encode());
    }

    @Test
    void encodeRejectsLinesOver1024Bytes() {
        String prefix = "cmd=put value=";
        Pmi1Message fits = Pmi1Message.of("put", "value", "x".repeat(1023 - prefix.length()));
        assertEquals(1024, fits.encode().length);
        Pmi1Message tooLong = Pmi1Message.of("put", "value", "x".repeat(1024 - prefix.length()));
        assertThrows(PmiException.class, tooLong::encode);
    }

    @Test
    void requireNamesTheMissingField() {
        PmiException e = assertThrows(PmiException.class,
                () -> Pmi1Message.parse("cmd=my_kvsname rc=0").require("kvsname"));
        assertEquals(true, e.getMessage().contains("kvsname"));
        assertThrows(PmiException.class, () -> Pmi1Message.parse("cmd=maxes vallen_max=big").requireInt("vallen_max"));
    }
}
