/** Types of the frame codec exported by `sandbox-executor.cjs` (see that file for the protocol). */

/** Version of the message set spoken by this executor. */
export declare const PROTOCOL_VERSION: number;
/** Environment variable the host sets (to "1") for the executor. */
export declare const SANDBOX_MARKER: string;
/** Frame kind of a JSON message. */
export declare const KIND_MESSAGE: 1;
/** Frame kind of a chunk of command output. */
export declare const KIND_OUTPUT: 2;
/** Stream number of stdout in output frames. */
export declare const STDOUT: 1;
/** Stream number of stderr in output frames. */
export declare const STDERR: 2;
/** Largest request frame the executor accepts. */
export declare const MAX_REQUEST_FRAME_BYTES: number;
/** Largest output chunk in one output frame. */
export declare const MAX_OUTPUT_CHUNK_BYTES: number;

/** A decoded frame. */
export type Frame =
  | { readonly kind: "message"; readonly message: Record<string, unknown> }
  | { readonly kind: "output"; readonly id: number; readonly stream: 1 | 2; readonly data: Buffer };

/** A frame that breaks the protocol; the stream is unusable after it. */
export declare class FrameError extends Error {}

/** Reassembles frames from a byte stream split anywhere. */
export declare class FrameDecoder {
  constructor(maxFrameBytes: number);
  /** @throws FrameError */
  push(chunk: Uint8Array): Frame[];
  /** Bytes received but not yet part of a complete frame. */
  readonly pendingBytes: number;
}

export declare function encodeFrame(kind: number, payload: Uint8Array): Buffer;
export declare function encodeMessage(message: Record<string, unknown>): Buffer;
export declare function encodeOutput(id: number, stream: 1 | 2, data: Uint8Array): Buffer;
