package dev.mpj.runtime.spi;

import dev.mpj.api.MpiBackend;

/**
 * MPI's matching rule for (context, source, tag), with the wildcards only on the receive side: the engine's queues
 * and a transport's direct take ({@link DirectReceive}) match by it alike.
 */
public final class Envelopes {
    private Envelopes() {
    }

    public static boolean matches(int wantContext, int wantSource, int wantTag, int context, int source, int tag) {
        return wantContext == context
                && (wantSource == MpiBackend.ANY_SOURCE || wantSource == source)
                && (wantTag == MpiBackend.ANY_TAG || wantTag == tag);
    }
}
