/**
 * The host's side of the executor protocol: the frame codec (loaded from the
 * very file that runs inside the sandbox, so both ends share one
 * implementation), the request shapes, and the validation of everything the
 * executor says. The executor runs as the sandbox's uid next to the agent's
 * commands, so its messages are untrusted input: anything malformed is a
 * protocol violation and the executor is killed.
 */
import { createRequire } from "node:module";
import { constants } from "node:os";
import type * as Codec from "./sandbox-executor.cjs";

const requireHere = createRequire(import.meta.url);

let loaded: typeof Codec | undefined;

/**
 * The frame codec of `sandbox-executor.cjs` (see that file for the wire
 * format), loaded on first use, so a broken install fails executors (which
 * then fall back to one bubblewrap per command), not every import.
 *
 * @returns the codec module.
 * @throws Error when the script is missing next to this module.
 */
export function executorCodec(): typeof Codec {
  loaded ??= requireHere("./sandbox-executor.cjs") as typeof Codec;
  return loaded;
}

/** Largest frame the host accepts from an executor (output frames carry at most 64 KiB). */
export const MAX_EXECUTOR_FRAME_BYTES = 1024 * 1024;

/** Runs one process in the sandbox. */
export interface ExecRequest {
  readonly type: "exec";
  readonly id: number;
  /** Program and arguments, e.g. `["/bin/bash", "-c", "ls"]`. */
  readonly argv: readonly string[];
  /** Virtual working directory. */
  readonly cwd: string;
  /** The complete environment of the process. */
  readonly env: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  /** Bytes forwarded per stream; the rest is counted only. */
  readonly maxOutputBytes: number;
  /** How long output is still read after the process exits. */
  readonly drainGraceMs: number;
}

/** Kills the tree of a running request. */
interface CancelRequest {
  readonly type: "cancel";
  readonly id: number;
}

/** What the host sends. New request types get an `UNSUPPORTED` error from executors that do not know them. */
export type ExecutorRequest = ExecRequest | CancelRequest;

/** The executor is up. */
interface ReadyMessage {
  readonly type: "ready";
  readonly protocol: number;
  /** Its pid inside the sandbox. */
  readonly pid: number;
}

/** The process of a request exists: from now on it must not be retried elsewhere. */
interface StartedMessage {
  readonly type: "started";
  readonly id: number;
}

/** How a request ended. */
export interface ResultMessage {
  readonly type: "result";
  readonly id: number;
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly timedOut: boolean;
  readonly aborted: boolean;
  /** Bytes the process wrote to each stream, forwarded or not. */
  readonly stdoutBytes: number;
  readonly stderrBytes: number;
  /** errno code when the process could not be started (`ENOENT`, `EAGAIN`...). */
  readonly spawnError: string | null;
  /** CPU time the executor itself has used so far. */
  readonly cpuMicros: number;
}

/** A request the executor refused. */
interface ErrorMessage {
  readonly type: "error";
  readonly id: number | null;
  readonly code: string;
  readonly message: string;
}

/** Everything an executor may say. */
export type ExecutorMessage = ReadyMessage | StartedMessage | ResultMessage | ErrorMessage;

/** The executor broke the protocol; it is killed. */
export class ExecutorProtocolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ExecutorProtocolError";
  }
}

const isRequestId = (v: unknown): v is number =>
  Number.isInteger(v) && (v as number) > 0 && (v as number) <= 0xffffffff;
const isCount = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;
const isShortText = (v: unknown, max: number): v is string => typeof v === "string" && v.length <= max;

function isSignalName(v: unknown): v is NodeJS.Signals {
  return typeof v === "string" && /^SIG[A-Z0-9]+$/.test(v) && Object.hasOwn(constants.signals, v);
}

function fail(what: string): never {
  throw new ExecutorProtocolError(`executor sent an invalid ${what}`);
}

/**
 * Checks a decoded message from an executor.
 *
 * @param raw - a JSON object from a message frame.
 * @returns the typed message.
 * @throws ExecutorProtocolError for anything that is not exactly one of {@link ExecutorMessage}.
 */
export function parseExecutorMessage(raw: Record<string, unknown>): ExecutorMessage {
  switch (raw["type"]) {
    case "ready":
      if (!isCount(raw["protocol"]) || !isCount(raw["pid"])) fail("ready message");
      return { type: "ready", protocol: raw["protocol"], pid: raw["pid"] };
    case "started":
      if (!isRequestId(raw["id"])) fail("started message");
      return { type: "started", id: raw["id"] };
    case "result": {
      const { id, exitCode, signal, timedOut, aborted, stdoutBytes, stderrBytes, spawnError, cpuMicros } = raw;
      if (!isRequestId(id)) fail("result id");
      if (
        !(exitCode === null || (Number.isInteger(exitCode) && (exitCode as number) >= 0 && (exitCode as number) <= 255))
      )
        fail("exit code");
      if (!(signal === null || isSignalName(signal))) fail("signal");
      if (typeof timedOut !== "boolean" || typeof aborted !== "boolean") fail("result flag");
      if (!isCount(stdoutBytes) || !isCount(stderrBytes) || !isCount(cpuMicros)) fail("result count");
      if (!(spawnError === null || (isShortText(spawnError, 32) && /^[A-Z0-9_]+$/.test(spawnError))))
        fail("spawn error");
      return {
        type: "result",
        id,
        exitCode: exitCode as number | null,
        signal,
        timedOut,
        aborted,
        stdoutBytes,
        stderrBytes,
        spawnError,
        cpuMicros,
      };
    }
    case "error": {
      const { id, code, message } = raw;
      if (!(id === null || isRequestId(id)) || !isShortText(code, 64) || !isShortText(message, 4096))
        fail("error message");
      return { type: "error", id: id as number | null, code, message };
    }
    default:
      return fail("message type");
  }
}

/**
 * Encodes a request.
 *
 * @param request - what to send.
 * @returns one frame.
 */
export function encodeRequest(request: ExecutorRequest): Buffer {
  return executorCodec().encodeMessage(request as unknown as Record<string, unknown>);
}
