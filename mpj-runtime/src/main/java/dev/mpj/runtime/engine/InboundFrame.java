package dev.mpj.runtime.engine;

import java.nio.ByteBuffer;

/** A frame handed over by a transport thread, waiting in the engine's inbox. */
record InboundFrame(int peer, ByteBuffer frame, Runnable release) {
}
