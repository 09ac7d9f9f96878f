"use strict";
/**
 * The sandbox executor: the one long-lived program inside a sandbox's
 * bubblewrap. It runs each command it is asked for as its own process group
 * and session, with its own environment, working directory, timeout and
 * output cap, and kills the command's whole tree when it ends.
 *
 * This file is shipped as is (no build step, no dependency) and plays two
 * roles:
 * - run by `node` inside the sandbox, it is the executor (`main()` below);
 * - `require`d (or imported) by the host, it provides the frame codec, so both
 *   ends of the control channel share one implementation.
 *
 * Control channel: the executor's stdin (requests) and stdout (replies), both
 * UNIX sockets set up by the host. Commands never see them: every command gets
 * its own stdio, and any other descriptor inherited without close-on-exec is
 * closed at start. Everything the executor says is treated by the host as
 * untrusted input.
 *
 * Frame: u32 big-endian length L, then L bytes: a kind byte and the payload.
 * - kind 1, message: UTF-8 JSON object with a `type`.
 * - kind 2, output: u32 request id, u8 stream (1 stdout, 2 stderr), bytes.
 *
 * Messages, host → executor:
 * - `{ type: "exec", id, argv, cwd, env, timeoutMs, maxOutputBytes, drainGraceMs }`
 * - `{ type: "cancel", id }`
 * Executor → host:
 * - `{ type: "ready", protocol, pid }` once, at start
 * - `{ type: "started", id, pid }` once the command's process exists
 * - `{ type: "result", id, exitCode, signal, timedOut, aborted, stdoutBytes, stderrBytes, spawnError, cpuMicros }`
 * - `{ type: "error", id, code, message }` for a request it cannot serve
 * Unknown request types get an `error` with code `UNSUPPORTED`, so new request
 * types (file operations, searches) can be added without breaking old hosts.
 */

/** Version of the message set; the host refuses an executor that speaks another. */
const PROTOCOL_VERSION = 1;
/** Frame kind of a JSON message. */
const KIND_MESSAGE = 1;
/** Frame kind of a chunk of command output. */
const KIND_OUTPUT = 2;
/** Output stream numbers in output frames. */
const STDOUT = 1;
const STDERR = 2;
/** Largest request the executor accepts (a command plus its environment). */
const MAX_REQUEST_FRAME_BYTES = 16 * 1024 * 1024;
/** Output is forwarded in chunks of at most this many bytes. */
const MAX_OUTPUT_CHUNK_BYTES = 64 * 1024;
/** A fork failing with EAGAIN (process limit reached) is retried this long. */
const SPAWN_RETRY_MS = 2000;
/** Set (to "1") in the executor's environment by the host; one of the checks of `insideOwnSandbox`. */
const SANDBOX_MARKER = "DEERFLOW_SANDBOX_EXECUTOR";
/** O_CLOEXEC as shown in /proc/<pid>/fdinfo (octal flags). */
const O_CLOEXEC = 0o2000000;

/** A frame that breaks the protocol (too large, unknown kind, bad JSON). */
class FrameError extends Error {
  constructor(message) {
    super(message);
    this.name = "FrameError";
  }
}

/**
 * @param {number} kind
 * @param {Uint8Array} payload
 * @returns {Buffer}
 */
function encodeFrame(kind, payload) {
  const frame = Buffer.allocUnsafe(5 + payload.length);
  frame.writeUInt32BE(1 + payload.length, 0);
  frame[4] = kind;
  frame.set(payload, 5);
  return frame;
}

/**
 * @param {Record<string, unknown>} message - a JSON-serialisable object with a `type`.
 * @returns {Buffer} one message frame.
 */
function encodeMessage(message) {
  return encodeFrame(KIND_MESSAGE, Buffer.from(JSON.stringify(message), "utf8"));
}

/**
 * @param {number} id - request id (u32).
 * @param {number} stream - {@link STDOUT} or {@link STDERR}.
 * @param {Uint8Array} data - the bytes.
 * @returns {Buffer} one output frame.
 */
function encodeOutput(id, stream, data) {
  const frame = Buffer.allocUnsafe(10 + data.length);
  frame.writeUInt32BE(6 + data.length, 0);
  frame[4] = KIND_OUTPUT;
  frame.writeUInt32BE(id, 5);
  frame[9] = stream;
  frame.set(data, 10);
  return frame;
}

/**
 * Reassembles frames from a byte stream split anywhere.
 *
 * `push` returns the frames completed by a chunk: `{ kind: "message", message }`
 * or `{ kind: "output", id, stream, data }`. It throws {@link FrameError} on
 * a frame over the size limit, an empty frame, an unknown kind, a message that
 * is not a JSON object, or an output frame without its header; the stream is
 * unusable after that.
 */
class FrameDecoder {
  /** @param {number} maxFrameBytes - largest frame length accepted (kind byte included). */
  constructor(maxFrameBytes) {
    this.maxFrameBytes = maxFrameBytes;
    /** @type {Buffer[]} */
    this.chunks = [];
    this.buffered = 0;
  }

  /**
   * @param {Uint8Array} chunk
   * @returns {Array<{kind: "message", message: Record<string, unknown>} | {kind: "output", id: number, stream: number, data: Buffer}>}
   */
  push(chunk) {
    if (chunk.length > 0) {
      this.chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length));
      this.buffered += chunk.length;
    }
    const frames = [];
    while (this.buffered >= 4) {
      const length = this.take(4, false).readUInt32BE(0);
      if (length === 0) throw new FrameError("empty frame");
      if (length > this.maxFrameBytes)
        throw new FrameError(`frame of ${length} bytes exceeds the limit of ${this.maxFrameBytes}`);
      if (this.buffered < 4 + length) break;
      this.take(4, true);
      frames.push(decodeBody(this.take(length, true)));
    }
    return frames;
  }

  /** Bytes received but not yet part of a complete frame. */
  get pendingBytes() {
    return this.buffered;
  }

  /** The first `n` buffered bytes, removed from the buffer when `consume`. */
  take(n, consume) {
    const first = this.chunks[0];
    let out;
    if (first.length >= n) {
      out = first.subarray(0, n);
    } else {
      out = Buffer.allocUnsafe(n);
      let at = 0;
      for (const chunk of this.chunks) {
        const part = Math.min(chunk.length, n - at);
        chunk.copy(out, at, 0, part);
        at += part;
        if (at === n) break;
      }
    }
    if (consume) {
      let left = n;
      while (left > 0) {
        const head = this.chunks[0];
        if (head.length <= left) {
          this.chunks.shift();
          left -= head.length;
        } else {
          this.chunks[0] = head.subarray(left);
          left = 0;
        }
      }
      this.buffered -= n;
    }
    return out;
  }
}

/** Decodes the body (kind byte + payload) of one frame. */
function decodeBody(body) {
  const kind = body[0];
  if (kind === KIND_MESSAGE) {
    let message;
    try {
      message = JSON.parse(body.subarray(1).toString("utf8"));
    } catch {
      throw new FrameError("message frame is not valid JSON");
    }
    if (typeof message !== "object" || message === null || Array.isArray(message))
      throw new FrameError("message frame is not a JSON object");
    return { kind: "message", message };
  }
  if (kind === KIND_OUTPUT) {
    if (body.length < 6) throw new FrameError("output frame too short");
    const stream = body[5];
    if (stream !== STDOUT && stream !== STDERR) throw new FrameError(`output frame names unknown stream ${stream}`);
    // Copied: the frame may be a view of a larger chunk that must not stay pinned.
    return { kind: "output", id: body.readUInt32BE(1), stream, data: Buffer.from(body.subarray(6)) };
  }
  throw new FrameError(`unknown frame kind ${kind}`);
}

module.exports = {
  PROTOCOL_VERSION,
  SANDBOX_MARKER,
  KIND_MESSAGE,
  KIND_OUTPUT,
  STDOUT,
  STDERR,
  MAX_REQUEST_FRAME_BYTES,
  MAX_OUTPUT_CHUNK_BYTES,
  FrameError,
  FrameDecoder,
  encodeFrame,
  encodeMessage,
  encodeOutput,
};

// ---------------------------------------------------------------------------
// The executor itself. Node modules are required here, not at the top, so the
// codec above stays loadable from any module format.

/**
 * True only inside a sandbox built for an executor: a fresh PID namespace
 * whose PID 1 is the executor's init and whose PID 2 is this process. The
 * executor kills processes and empties /tmp and /dev/shm; run anywhere else
 * (on a host, as root) that would be a disaster, so it refuses.
 */
function insideOwnSandbox(fs) {
  if (process.env[SANDBOX_MARKER] !== "1" || process.pid !== 2 || process.ppid !== 1) return false;
  try {
    return fs.readFileSync("/proc/1/cmdline", "utf8").split("\0").includes("deerflow-executor");
  } catch {
    return false;
  }
}

function main() {
  const fs = require("node:fs");
  const { spawn, spawnSync } = require("node:child_process");

  if (!insideOwnSandbox(fs)) {
    process.stderr.write(
      "sandbox executor: refusing to run outside its own sandbox (it must be PID 2 under its init in a new PID namespace)\n",
    );
    process.exit(78);
  }
  closeInheritedDescriptors(fs);

  const self = process.pid;
  const decoder = new FrameDecoder(MAX_REQUEST_FRAME_BYTES);
  /** @type {Map<number, Command>} commands not yet answered */
  const commands = new Map();
  let closing = false;

  const send = (frame) => {
    if (!closing) process.stdout.write(frame);
  };
  const sendMessage = (message) => send(encodeMessage(message));

  process.stdout.on("error", () => shutdown(0));
  process.stdin.on("data", (chunk) => {
    let frames;
    try {
      frames = decoder.push(chunk);
    } catch (err) {
      process.stderr.write(`sandbox executor: ${err.message}\n`);
      shutdown(2);
      return;
    }
    for (const frame of frames) {
      if (frame.kind === "message") handle(frame.message);
      else sendMessage({ type: "error", id: null, code: "BAD_REQUEST", message: "output frames are not accepted" });
    }
  });
  // The host closing the channel means: stop, and take every command along.
  process.stdin.on("end", () => shutdown(0));
  process.stdin.on("error", () => shutdown(0));

  sendMessage({ type: "ready", protocol: PROTOCOL_VERSION, pid: self });

  function handle(message) {
    const id = message.id;
    if (message.type === "exec") {
      const problem = execProblem(message);
      if (problem !== undefined)
        sendMessage({ type: "error", id: isRequestId(id) ? id : null, code: "BAD_REQUEST", message: problem });
      else if (commands.has(id))
        sendMessage({ type: "error", id, code: "BAD_REQUEST", message: `request id ${id} is in use` });
      else startCommand(message);
    } else if (message.type === "cancel") {
      const command = isRequestId(id) ? commands.get(id) : undefined;
      if (command !== undefined) {
        command.aborted = true;
        stopCommand(command);
      }
    } else {
      sendMessage({
        type: "error",
        id: isRequestId(id) ? id : null,
        code: "UNSUPPORTED",
        message: `unknown request type ${JSON.stringify(message.type)}`,
      });
    }
  }

  /**
   * @typedef {object} Command
   * @property {number} id
   * @property {any} request
   * @property {import("node:child_process").ChildProcess | undefined} child
   * @property {number | undefined} pid
   * @property {number[]} forwarded bytes sent per stream (index 1 and 2)
   * @property {number[]} total bytes produced per stream
   * @property {number} openStreams
   * @property {{code: number | null, signal: string | null} | undefined} exited
   * @property {boolean} timedOut
   * @property {boolean} aborted
   * @property {boolean} ended true once the leader is gone: its tree no longer counts as live
   * @property {NodeJS.Timeout | undefined} timer
   * @property {NodeJS.Timeout | undefined} graceTimer
   * @property {number} deadline
   */

  function startCommand(request) {
    /** @type {Command} */
    const command = {
      id: request.id,
      request,
      child: undefined,
      pid: undefined,
      forwarded: [0, 0, 0],
      total: [0, 0, 0],
      openStreams: 2,
      exited: undefined,
      timedOut: false,
      aborted: false,
      ended: false,
      timer: undefined,
      graceTimer: undefined,
      deadline: Date.now() + request.timeoutMs,
    };
    commands.set(command.id, command);
    command.timer = setTimeout(
      () => {
        command.timedOut = true;
        stopCommand(command);
      },
      Math.min(request.timeoutMs, 2_147_483_647),
    );
    spawnCommand(command, Date.now() + SPAWN_RETRY_MS);
  }

  function spawnCommand(command, retryUntil) {
    const { argv, cwd, env } = command.request;
    let child;
    try {
      // detached: setsid(), so the command leads its own session and process group.
      child = spawn(argv[0], argv.slice(1), { cwd, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    } catch (err) {
      spawnFailed(command, err);
      return;
    }
    if (child.pid === undefined) {
      child.once("error", (err) => {
        // EAGAIN: the process limit is reached, often by the remains of a
        // command being torn down right now; the budget comes back quickly.
        if (err.code === "EAGAIN" && !command.timedOut && !command.aborted && Date.now() < retryUntil) {
          setTimeout(() => spawnCommand(command, retryUntil), 50);
        } else {
          spawnFailed(command, err);
        }
      });
      return;
    }
    if (command.timedOut || command.aborted) {
      // Stopped while the spawn was being retried.
      killGroup(child.pid);
    }
    command.child = child;
    command.pid = child.pid;
    sendMessage({ type: "started", id: command.id, pid: child.pid });
    child.on("error", () => {});
    const watch = (stream, number) => {
      stream.on("data", (chunk) => forward(command, number, chunk));
      stream.on("error", () => {});
      stream.once("close", () => {
        command.openStreams -= 1;
        if (command.openStreams === 0) finish(command);
      });
    };
    watch(child.stdout, STDOUT);
    watch(child.stderr, STDERR);
    child.once("exit", (code, signal) => {
      command.exited = { code, signal };
      command.ended = true;
      // Background children end with the command, as when each command had a
      // PID namespace of its own.
      killTree(command);
      if (command.openStreams === 0) finish(command);
      else command.graceTimer = setTimeout(() => finish(command), command.request.drainGraceMs);
    });
  }

  function spawnFailed(command, err) {
    command.ended = true;
    command.exited = { code: null, signal: null };
    command.spawnError = typeof err.code === "string" ? err.code : "ESPAWN";
    finish(command);
  }

  function forward(command, stream, chunk) {
    command.total[stream] += chunk.length;
    const room = command.request.maxOutputBytes - command.forwarded[stream];
    if (room <= 0) return;
    let data = chunk.length <= room ? chunk : chunk.subarray(0, room);
    command.forwarded[stream] += data.length;
    while (data.length > 0) {
      send(encodeOutput(command.id, stream, data.subarray(0, MAX_OUTPUT_CHUNK_BYTES)));
      data = data.subarray(MAX_OUTPUT_CHUNK_BYTES);
    }
  }

  /** Timeout or cancel: kill the command's tree; its leader's exit then finishes it. */
  function stopCommand(command) {
    if (command.pid === undefined) return; // not spawned yet: spawnCommand sees the flag
    command.ended = true;
    killTree(command);
  }

  function finish(command) {
    if (!commands.has(command.id) || command.exited === undefined) return;
    commands.delete(command.id);
    clearTimeout(command.timer);
    clearTimeout(command.graceTimer);
    if (command.child !== undefined) {
      // A process that escaped may still hold the pipes: stop reading them.
      for (const stream of [command.child.stdout, command.child.stderr]) {
        stream.removeAllListeners("data");
        stream.on("data", () => {});
      }
    }
    const usage = process.cpuUsage();
    sendMessage({
      type: "result",
      id: command.id,
      exitCode: command.exited.code,
      signal: command.exited.signal,
      timedOut: command.timedOut,
      aborted: command.aborted,
      stdoutBytes: command.total[STDOUT],
      stderrBytes: command.total[STDERR],
      spawnError: command.spawnError ?? null,
      cpuMicros: usage.user + usage.system,
    });
    // Synchronous, so no further request is read before the sandbox is clean.
    if (commands.size === 0) cleanIdleSandbox();
  }

  /** Kills the command's process group, then every process no running command accounts for. */
  function killTree(command) {
    if (command.pid !== undefined) killGroup(command.pid);
    sweep();
  }

  /**
   * Kills every process of the sandbox that does not belong to a command still
   * running. A process belongs to a command when it, or one of its ancestors,
   * is in that command's session or process group; a process that left its
   * session and lost its parent cannot be attributed and is killed.
   */
  function sweep() {
    const live = new Set();
    for (const command of commands.values()) if (!command.ended && command.pid !== undefined) live.add(command.pid);
    for (let round = 0; round < 5; round += 1) {
      const processes = readProcesses();
      let killed = 0;
      for (const [pid, info] of processes) {
        if (pid === 1 || pid === self || info.state === "Z" || info.state === "X") continue;
        if (belongsToLiveCommand(pid, processes, live)) continue;
        try {
          process.kill(pid, "SIGKILL");
          killed += 1;
        } catch {
          // gone already
        }
      }
      if (killed === 0) return;
    }
  }

  function belongsToLiveCommand(pid, processes, live) {
    let current = pid;
    for (let depth = 0; depth < 128; depth += 1) {
      const info = processes.get(current);
      if (info === undefined) return false;
      if (live.has(info.session) || live.has(info.pgrp)) return true;
      if (info.ppid <= 1 || info.ppid === self) return false;
      current = info.ppid;
    }
    return false;
  }

  /** pid → { ppid, pgrp, session, state } of every process in the sandbox. */
  function readProcesses() {
    const out = new Map();
    let names;
    try {
      names = fs.readdirSync("/proc");
    } catch {
      return out;
    }
    for (const name of names) {
      const pid = Number(name);
      if (!Number.isInteger(pid) || pid <= 0) continue;
      let stat;
      try {
        stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      } catch {
        continue;
      }
      // The command name may contain spaces and parentheses: parse after the last ')'.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      out.set(pid, { state: fields[0], ppid: Number(fields[1]), pgrp: Number(fields[2]), session: Number(fields[3]) });
    }
    return out;
  }

  /**
   * With no command running, the sandbox is brought back to the state a new
   * command found when each command had a sandbox of its own: no process left,
   * empty /tmp and /dev/shm, no System V IPC objects.
   */
  function cleanIdleSandbox() {
    sweep();
    for (const dir of ["/tmp", "/dev/shm"]) emptyDirectory(dir);
    if (hasIpcObjects()) spawnSync("ipcrm", ["--all"], { stdio: "ignore", timeout: 5000 });
  }

  function emptyDirectory(dir) {
    let names;
    try {
      names = fs.readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      try {
        fs.rmSync(`${dir}/${name}`, { recursive: true, force: true, maxRetries: 0 });
      } catch {
        // not ours to remove
      }
    }
  }

  function hasIpcObjects() {
    for (const kind of ["shm", "sem", "msg"]) {
      try {
        if (fs.readFileSync(`/proc/sysvipc/${kind}`, "utf8").trim().split("\n").length > 1) return true;
      } catch {
        // no SysV IPC in this kernel
      }
    }
    return false;
  }

  function killGroup(pid) {
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // empty group
    }
  }

  function shutdown(code) {
    if (closing) return;
    closing = true;
    for (const command of commands.values()) command.ended = true;
    for (const command of commands.values()) if (command.pid !== undefined) killGroup(command.pid);
    sweep();
    process.exit(code);
  }
}

function isRequestId(value) {
  return Number.isInteger(value) && value > 0 && value <= 0xffffffff;
}

/** Why an `exec` request cannot be served, or `undefined`. */
function execProblem(message) {
  if (!isRequestId(message.id)) return "id must be an integer in [1, 2^32)";
  const { argv, cwd, env } = message;
  if (!Array.isArray(argv) || argv.length === 0 || !argv.every((a) => typeof a === "string"))
    return "argv must be a non-empty array of strings";
  if (typeof cwd !== "string" || !cwd.startsWith("/")) return "cwd must be an absolute path";
  if (
    typeof env !== "object" ||
    env === null ||
    Array.isArray(env) ||
    !Object.values(env).every((v) => typeof v === "string")
  )
    return "env must map names to strings";
  for (const key of ["timeoutMs", "maxOutputBytes", "drainGraceMs"]) {
    if (typeof message[key] !== "number" || !(message[key] >= 0) || !Number.isFinite(message[key]))
      return `${key} must be a non-negative number`;
  }
  return undefined;
}

/**
 * Closes every inherited descriptor above stderr that lacks close-on-exec
 * (Node's own are all close-on-exec), so no command can inherit a channel
 * the executor was started with.
 */
function closeInheritedDescriptors(fs) {
  for (const name of fs.readdirSync("/proc/self/fd")) {
    const fd = Number(name);
    if (!(fd > 2)) continue;
    let flags;
    try {
      flags = parseInt(/^flags:\s+([0-7]+)/m.exec(fs.readFileSync(`/proc/self/fdinfo/${fd}`, "utf8"))[1], 8);
    } catch {
      continue; // the directory handle of the listing itself, already closed
    }
    if ((flags & O_CLOEXEC) === 0) {
      try {
        fs.closeSync(fd);
      } catch {
        // closed meanwhile
      }
    }
  }
}

if (typeof require !== "undefined" && require.main === module) main();
