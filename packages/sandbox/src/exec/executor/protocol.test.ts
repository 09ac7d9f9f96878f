import { describe, expect, it } from "vitest";
import { encodeRequest, executorCodec, ExecutorProtocolError, parseExecutorMessage } from "./protocol.js";

const { FrameDecoder, FrameError, encodeFrame, encodeMessage, encodeOutput, KIND_MESSAGE, STDERR, STDOUT } =
  executorCodec();

const RESULT = {
  type: "result",
  id: 7,
  exitCode: 0,
  signal: null,
  timedOut: false,
  aborted: false,
  stdoutBytes: 3,
  stderrBytes: 0,
  spawnError: null,
  cpuMicros: 1200,
};

describe("frame codec", () => {
  it("round-trips messages and output frames", () => {
    const decoder = new FrameDecoder(1 << 20);
    const bytes = Buffer.concat([
      encodeMessage({ type: "ready", protocol: 1, pid: 2 }),
      encodeOutput(7, STDOUT, Buffer.from("hi\n")),
      encodeOutput(7, STDERR, Buffer.alloc(0)),
    ]);
    expect(decoder.push(bytes)).toEqual([
      { kind: "message", message: { type: "ready", protocol: 1, pid: 2 } },
      { kind: "output", id: 7, stream: STDOUT, data: Buffer.from("hi\n") },
      { kind: "output", id: 7, stream: STDERR, data: Buffer.alloc(0) },
    ]);
    expect(decoder.pendingBytes).toBe(0);
  });

  it("reassembles frames split at every possible byte", () => {
    const frames = Buffer.concat([
      encodeMessage({ type: "started", id: 1, text: "é€😀" }),
      encodeOutput(1, STDOUT, Buffer.from([0, 255, 10])),
    ]);
    for (let cut = 0; cut <= frames.length; cut += 1) {
      const decoder = new FrameDecoder(1 << 20);
      const got = [...decoder.push(frames.subarray(0, cut)), ...decoder.push(frames.subarray(cut))];
      expect(got).toHaveLength(2);
      expect(got[0]).toEqual({ kind: "message", message: { type: "started", id: 1, text: "é€😀" } });
      expect(got[1]).toEqual({ kind: "output", id: 1, stream: STDOUT, data: Buffer.from([0, 255, 10]) });
    }
  });

  it("reassembles a frame delivered one byte at a time", () => {
    const frame = encodeOutput(0xffffffff, STDERR, Buffer.from("x".repeat(300)));
    const decoder = new FrameDecoder(1 << 20);
    const got = [...frame].flatMap((byte) => decoder.push(Uint8Array.of(byte)));
    expect(got).toEqual([{ kind: "output", id: 0xffffffff, stream: STDERR, data: Buffer.from("x".repeat(300)) }]);
  });

  it("does not keep the chunk it was given alive through an output frame", () => {
    const chunk = Buffer.concat([
      encodeOutput(1, STDOUT, Buffer.from("abc")),
      encodeMessage({ type: "started", id: 1, pad: "p".repeat(64 * 1024) }),
    ]);
    const [frame] = new FrameDecoder(1 << 20).push(chunk);
    expect(frame?.kind === "output" && frame.data.buffer !== chunk.buffer).toBe(true);
  });

  it.each([
    ["a frame over the limit", () => encodeMessage({ type: "x", pad: "y".repeat(100) }), /exceeds the limit of 64/],
    ["an empty frame", () => Buffer.alloc(4), /empty frame/],
    ["an unknown kind", () => encodeFrame(9, Buffer.from("{}")), /unknown frame kind 9/],
    ["a message that is not JSON", () => encodeFrame(KIND_MESSAGE, Buffer.from("{nope")), /not valid JSON/],
    ["a message that is not an object", () => encodeFrame(KIND_MESSAGE, Buffer.from("[1]")), /not a JSON object/],
    ["an output frame without its header", () => encodeFrame(2, Buffer.from([0, 0, 1])), /too short/],
    [
      "an output frame for an unknown stream",
      () => encodeFrame(2, Buffer.from([0, 0, 0, 1, 3, 65])),
      /unknown stream 3/,
    ],
  ])("refuses %s", (_what, frame, message) => {
    const decoder = new FrameDecoder(64);
    expect(() => decoder.push(frame())).toThrow(FrameError);
    expect(() => new FrameDecoder(64).push(frame())).toThrow(message);
  });

  it("refuses an oversized frame from its header alone, before the body arrives", () => {
    const header = Buffer.alloc(4);
    header.writeUInt32BE(1 << 30, 0);
    expect(() => new FrameDecoder(1 << 20).push(header)).toThrow(FrameError);
  });

  it("encodes requests as message frames", () => {
    const frame = encodeRequest({ type: "cancel", id: 3 });
    expect(new FrameDecoder(1024).push(frame)).toEqual([{ kind: "message", message: { type: "cancel", id: 3 } }]);
  });
});

describe("parseExecutorMessage", () => {
  it("accepts each message the executor sends", () => {
    expect(parseExecutorMessage({ type: "ready", protocol: 1, pid: 2 })).toEqual({
      type: "ready",
      protocol: 1,
      pid: 2,
    });
    expect(parseExecutorMessage({ type: "started", id: 4, pid: 9 })).toEqual({ type: "started", id: 4 });
    expect(parseExecutorMessage(RESULT)).toEqual(RESULT);
    expect(parseExecutorMessage({ ...RESULT, exitCode: null, signal: "SIGKILL", timedOut: true })).toMatchObject({
      signal: "SIGKILL",
      exitCode: null,
    });
    expect(parseExecutorMessage({ ...RESULT, exitCode: null, spawnError: "EAGAIN" })).toMatchObject({
      spawnError: "EAGAIN",
    });
    expect(parseExecutorMessage({ type: "error", id: null, code: "UNSUPPORTED", message: "no" })).toEqual({
      type: "error",
      id: null,
      code: "UNSUPPORTED",
      message: "no",
    });
  });

  it.each([
    ["an unknown type", { type: "hello" }],
    ["a ready message without pid", { type: "ready", protocol: 1 }],
    ["a request id of 0", { type: "started", id: 0 }],
    ["a request id past 32 bits", { type: "started", id: 2 ** 32 }],
    ["an exit code over 255", { ...RESULT, exitCode: 256 }],
    ["a fractional exit code", { ...RESULT, exitCode: 1.5 }],
    ["an unknown signal", { ...RESULT, signal: "SIGNOPE" }],
    ["a signal that is not a name", { ...RESULT, signal: "constructor" }],
    ["a negative byte count", { ...RESULT, stdoutBytes: -1 }],
    ["a flag that is not a boolean", { ...RESULT, timedOut: "no" }],
    ["a spawn error that is not an errno code", { ...RESULT, spawnError: "<script>" }],
    ["an error message that is too long", { type: "error", id: 1, code: "X", message: "m".repeat(5000) }],
  ])("refuses %s", (_what, raw) => {
    expect(() => parseExecutorMessage(raw as Record<string, unknown>)).toThrow(ExecutorProtocolError);
  });
});
