/**
 * An SSE response read as it arrives (fetch), for tests that must see the raw
 * frames: every event id and the closing `end` frame, which SDK clients hide.
 */

/** One parsed SSE event. */
export interface SseEvent {
  readonly event: string;
  readonly data: unknown;
  readonly id?: string;
}

/** A streaming response and the text received so far. */
export interface SseStream {
  readonly status: number;
  readonly headers: Headers;
  /** Resolves with the text once `predicate` holds; rejects if the response ends first. */
  until(predicate: (text: string) => boolean, what: string): Promise<string>;
  /** Resolves with the whole body once the server ends the response. */
  done(): Promise<string>;
}

/** Sends the request and resolves once the headers arrived; the body is read in the background. */
export async function openSse(url: string, init: RequestInit = {}): Promise<SseStream> {
  const res = await fetch(url, init);
  let text = "";
  let ended = false;
  const watchers = new Set<() => void>();
  const notify = (): void => {
    for (const watch of [...watchers]) watch();
  };
  void (async () => {
    try {
      const decoder = new TextDecoder();
      for await (const chunk of res.body ?? []) {
        text += decoder.decode(chunk as Uint8Array, { stream: true });
        notify();
      }
    } catch {
      // A connection cut by the server ends the body like a clean end; the frames tell which it was.
    } finally {
      ended = true;
      notify();
    }
  })();
  const until = (predicate: (t: string) => boolean, what: string): Promise<string> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        if (predicate(text)) {
          watchers.delete(check);
          resolve(text);
        } else if (ended) {
          watchers.delete(check);
          reject(new Error(`the response ended before ${what}; got:\n${text.slice(-2_000)}`));
        }
      };
      watchers.add(check);
      check();
    });
  return { status: res.status, headers: res.headers, until, done: () => until(() => ended, "its end") };
}

/** The events of an SSE body (heartbeat comments dropped). */
export function sseEvents(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  for (const block of text.split("\n\n")) {
    const fields = new Map<string, string>();
    for (const line of block.split("\n")) {
      if (line.startsWith(":")) continue;
      const colon = line.indexOf(": ");
      if (colon > 0) fields.set(line.slice(0, colon), line.slice(colon + 2));
    }
    const event = fields.get("event");
    if (event === undefined) continue;
    const id = fields.get("id");
    events.push({ event, data: JSON.parse(fields.get("data") ?? "null"), ...(id === undefined ? {} : { id }) });
  }
  return events;
}
