/**
 * Ends each run's sandbox lease when the run is over, however it ends. A run
 * that completes releases at its last model call (the sandbox middleware's
 * after-work on an answer without tool calls); one that stops on an interrupt
 * (`ask_clarification`), an error or its abort signal never gets there, and
 * LangGraph hands nodes a per-step signal that says nothing once the step is
 * done. The agent's own `invoke` and `stream` do know: their call settles, or
 * their stream is read to its end, fails, or is closed early.
 */
import type { ReactAgent } from "langchain";
import type { RunConfigLike } from "../run/run-options.js";
import type { ThreadSandboxes } from "./thread-sandboxes.js";

type StreamLike = AsyncIterator<unknown> & { cancel?: (reason?: unknown) => Promise<void> };

/**
 * Wraps the iterator methods of a stream (in place, so it keeps its type and
 * its other methods) to call `end` once: when it is done, fails, or is
 * returned or cancelled early.
 */
function onStreamEnd<T extends StreamLike>(stream: T, end: () => Promise<void>): T {
  let ended: Promise<void> | undefined;
  const endOnce = (): Promise<void> => (ended ??= end());
  const next = stream.next.bind(stream);
  const finish = stream.return?.bind(stream);
  const cancel = stream.cancel?.bind(stream);
  stream.next = async (...args: [] | [unknown]) => {
    try {
      const result = await next(...args);
      if (result.done === true) await endOnce();
      return result;
    } catch (err) {
      await endOnce();
      throw err;
    }
  };
  if (finish !== undefined) {
    stream.return = async (value?: unknown) => {
      try {
        return await finish(value);
      } finally {
        await endOnce();
      }
    };
  }
  if (cancel !== undefined) {
    stream.cancel = async (reason?: unknown) => {
      try {
        await cancel(reason);
      } finally {
        await endOnce();
      }
    };
  }
  return stream;
}

/**
 * Makes `agent.invoke` and `agent.stream` end the run's lease when the run is over.
 * (`agent.graph` used directly, and agents derived with `withConfig`, release at the run's last model call only.)
 *
 * @param agent - the compiled agent (changed in place)
 * @param sessions - its sandbox sessions
 * @returns the same agent
 */
export function releaseSandboxesAfterRuns<T extends ReactAgent>(agent: T, sessions: ThreadSandboxes): T {
  const invoke = agent.invoke.bind(agent);
  const stream = agent.stream.bind(agent);
  const close = (config: unknown): Promise<void> => sessions.close((config ?? {}) as RunConfigLike);
  Object.assign(agent, {
    invoke: async (...args: Parameters<typeof invoke>) => {
      try {
        return await invoke(...args);
      } finally {
        await close(args[1]);
      }
    },
    stream: async (...args: Parameters<typeof stream>) => {
      let iterable: Awaited<ReturnType<typeof stream>>;
      try {
        iterable = await stream(...args);
      } catch (err) {
        await close(args[1]);
        throw err;
      }
      return onStreamEnd(iterable as unknown as StreamLike, () => close(args[1]));
    },
  });
  return agent;
}
