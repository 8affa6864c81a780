package dev.mpj.runtime.engine;

import dev.mpj.api.MpiBackend;

/** MPI's matching rule for (context, source, tag), with the wildcards only on the receive side. */
final class Envelopes {
    private Envelopes() {
    }

    static boolean matches(int wantContext, int wantSource, int wantTag, int context, int source, int tag) {
        return wantContext == context
                && (wantSource == MpiBackend.ANY_SOURCE || wantSource == source)
                && (wantTag == MpiBackend.ANY_TAG || wantTag == tag);
    }
}
