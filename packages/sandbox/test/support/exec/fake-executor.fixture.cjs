"use strict";
/**
 * A stand-in executor for the pool's unit tests: it speaks the real protocol
 * (with the real codec) but runs nothing. `argv[0]` of a request says what to
 * do; `FAKE_EXECUTOR_MODE=never-ready` / `exit-at-start` break it at start.
 */
const { FrameDecoder, encodeMessage, encodeOutput, MAX_REQUEST_FRAME_BYTES, STDOUT } = require("../../../src/exec/executor/sandbox-executor.cjs");

const mode = process.env.FAKE_EXECUTOR_MODE ?? "";
if (mode === "exit-at-start") {
  process.stderr.write("fake executor: refusing to start\n");
  process.exit(3);
}

const decoder = new FrameDecoder(MAX_REQUEST_FRAME_BYTES);
const send = (frame) => process.stdout.write(frame);
const result = (id, fields) =>
  send(encodeMessage({ type: "result", id, exitCode: 0, signal: null, timedOut: false, aborted: false, stdoutBytes: 0, stderrBytes: 0, spawnError: null, cpuMicros: 1000, ...fields }));
const pending = new Map();

if (mode !== "never-ready") send(encodeMessage({ type: "ready", protocol: 1, pid: process.pid }));
process.stdin.on("end", () => process.exit(0));
process.stdin.on("data", (chunk) => {
  for (const frame of decoder.push(chunk)) {
    const request = frame.message;
    if (request.type === "cancel") {
      if (pending.has(request.id)) result(request.id, { exitCode: null, signal: "SIGKILL", aborted: true });
      pending.delete(request.id);
      continue;
    }
    const [action, arg = ""] = request.argv;
    if (action === "die-before-start") process.exit(1);
    if (action === "die-before-start-once" && !require("node:fs").existsSync(arg)) {
      require("node:fs").writeFileSync(arg, "");
      process.exit(1);
    }
    send(encodeMessage({ type: "started", id: request.id, pid: 99 }));
    if (action === "echo" || action === "die-before-start-once") {
      const data = Buffer.from(arg);
      const kept = data.subarray(0, request.maxOutputBytes);
      if (kept.length > 0) send(encodeOutput(request.id, STDOUT, kept));
      result(request.id, { stdoutBytes: data.length });
    } else if (action === "pid") {
      send(encodeOutput(request.id, STDOUT, Buffer.from(String(process.pid))));
      result(request.id, { stdoutBytes: String(process.pid).length });
    } else if (action === "die") {
      process.exit(1);
    } else if (action === "garbage") {
      send(Buffer.from([0, 0, 0, 2, 9, 9]));
    } else if (action === "hang") {
      pending.set(request.id, true);
    }
  }
});
