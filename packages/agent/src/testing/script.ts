/**
 * What a scripted OpenAI-compatible endpoint answers: one {@link ScriptStep}
 * per request, in order (or computed from the request).
 */

/** A tool call the scripted model makes. */
export interface ScriptedToolCall {
  readonly name: string;
  readonly args: Readonly<Record<string, unknown>>;
  /** Default `call_<request>_<index>`. */
  readonly id?: string;
}

/** A completion. */
export interface ScriptedReply {
  /** The answer; an array gives the streamed pieces (a string is streamed word by word). */
  readonly text?: string | readonly string[];
  /** `reasoning_content` (DeepSeek / OpenAI-compatible reasoning), streamed before the text. */
  readonly reasoning?: string | readonly string[];
  readonly toolCalls?: readonly ScriptedToolCall[];
  /** Default `tool_calls` with tool calls, else `stop`. */
  readonly finishReason?: "stop" | "length" | "tool_calls" | "content_filter";
  /** Default 10 prompt and 5 completion tokens. */
  readonly usage?: { readonly promptTokens: number; readonly completionTokens: number };
  /** Wait this long before answering (a slow model). */
  readonly delayMs?: number;
}

/** An HTTP error in OpenAI's error format (`{ error: { message, type, param, code } }`). */
export interface ScriptedError {
  /** e.g. 500, 429, 401. */
  readonly status: number;
  /** e.g. `{ "retry-after": "1" }`. */
  readonly headers?: Readonly<Record<string, string>>;
  readonly message?: string;
  /** Default `server_error` (5xx), `rate_limit_exceeded` (429), else `invalid_request_error`. */
  readonly type?: string;
  readonly code?: string;
}

/** One answer. */
export type ScriptStep = ScriptedReply | ScriptedError;

/** A request as the endpoint received it. */
export interface RecordedRequest {
  readonly method: string;
  /** Path and query. */
  readonly url: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The parsed JSON body. */
  readonly body: Readonly<Record<string, unknown>>;
  readonly model: string | undefined;
  /** `body.messages` (OpenAI chat messages). */
  readonly messages: readonly Readonly<Record<string, unknown>>[];
  /** `body.tools` (OpenAI function tools). */
  readonly tools: readonly Readonly<Record<string, unknown>>[];
  /** Names of `body.tools`. */
  readonly toolNames: readonly string[];
  readonly stream: boolean;
  /** When the endpoint received it (`Date.now()`), e.g. to check a client waited for `Retry-After`. */
  readonly receivedAt: number;
}

/** Computes the answer to a request (`index` counts chat-completion requests from 0). */
export type ScriptFunction = (request: RecordedRequest, index: number) => ScriptStep | Promise<ScriptStep>;

/** Steps answered in order (a function step computes its answer), or one function for every request. */
export type Script = readonly (ScriptStep | ScriptFunction)[] | ScriptFunction;

/** True for an error step. */
export function isScriptedError(step: ScriptStep): step is ScriptedError {
  return typeof (step as ScriptedError).status === "number";
}
