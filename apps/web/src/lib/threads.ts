/**
 * The thread list shared by the chat sidebar, the Threads page and the Files
 * page, reloaded whenever a page reports a change (new thread, run finished,
 * rename, delete).
 */
import type { Thread } from "@langchain/langgraph-sdk";
import { useCallback, useEffect, useState } from "react";
import { useAuth } from "./auth";
import { errorText, sdkClient } from "./api";

const CHANGED = "deerflow:threads-changed";

/** Tells every thread list to reload. */
export function notifyThreadsChanged(): void {
  window.dispatchEvent(new Event(CHANGED));
}

/**
 * A thread's display title: `metadata.title` (the agent's title, or a rename), else the
 * state's `title`, else its first words, else its id.
 */
export function threadTitle(thread: Pick<Thread, "thread_id" | "metadata" | "values">): string {
  const title =
    (thread.metadata as Record<string, unknown> | null)?.["title"] ??
    (thread.values as { title?: unknown } | null)?.title;
  if (typeof title === "string" && title.trim() !== "") return title.trim();
  const messages = (thread.values as { messages?: Array<{ type?: string; content?: unknown }> } | null)?.messages;
  const first = messages?.find((m) => m.type === "human")?.content;
  if (typeof first === "string" && first.trim() !== "") return first.trim().slice(0, 80);
  return `Thread ${thread.thread_id.slice(0, 8)}`;
}

/** The custom agent a thread was started with (`metadata.agent_name`, set when the thread is created), or `null`. */
export function threadAgent(thread: Pick<Thread, "metadata">): string | null {
  const name = (thread.metadata as Record<string, unknown> | null)?.["agent_name"];
  return typeof name === "string" && name !== "" ? name : null;
}

/** Where a thread's chat is: `/agents/<name>/chat/<id>` for a custom agent's thread, else `/chat/<id>`. */
export function threadPath(thread: Pick<Thread, "thread_id" | "metadata">): string {
  const agent = threadAgent(thread);
  const id = encodeURIComponent(thread.thread_id);
  return agent === null ? `/chat/${id}` : `/agents/${encodeURIComponent(agent)}/chat/${id}`;
}

/** The last thread opened in the chat (the Files page starts there). */
export function lastThreadId(): string | null {
  try {
    return window.sessionStorage.getItem("deerflow:last-thread");
  } catch {
    return null;
  }
}

/** Remembers the thread opened in the chat. */
export function rememberThread(threadId: string | null): void {
  try {
    if (threadId === null) window.sessionStorage.removeItem("deerflow:last-thread");
    else window.sessionStorage.setItem("deerflow:last-thread", threadId);
  } catch {
    // Storage disabled.
  }
}

/** The most recently updated threads (up to 100). */
export function useThreadList(): { threads: Thread[]; loading: boolean; error: string | null; reload: () => void } {
  const { apiKey } = useAuth();
  const [threads, setThreads] = useState<Thread[]>([]);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [tick, setTick] = useState(0);
  const reload = useCallback(() => setTick((t) => t + 1), []);

  useEffect(() => {
    window.addEventListener(CHANGED, reload);
    return () => window.removeEventListener(CHANGED, reload);
  }, [reload]);

  useEffect(() => {
    let live = true;
    setLoading(true);
    sdkClient()
      .threads.search({ limit: 100, sortBy: "updated_at", sortOrder: "desc" })
      .then(
        (found) => {
          if (!live) return;
          setThreads(found);
          setError(null);
        },
        (err: unknown) => live && setError(errorText(err)),
      )
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [tick, apiKey]);

  return { threads, loading, error, reload };
}
