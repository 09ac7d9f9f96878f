/**
 * Raw HTTP over a socket, for asserting SSE bytes exactly (no client decoding).
 */
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";

export interface RawStream {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  /** Everything received so far. */
  text(): string;
  /** Resolves when `predicate(text)` holds (checked on every chunk), rejects if the response ends first. */
  until(predicate: (text: string) => boolean, what: string): Promise<string>;
  /** Resolves with the whole body once the server ends the response. */
  done(): Promise<string>;
  /** Destroys the connection. */
  abort(): void;
}

/** Opens a request and resolves once the status line and headers arrived. */
export function openRaw(
  origin: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<RawStream> {
  const url = new URL(path, origin);
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method: options.method ?? "GET",
        headers: { ...(payload === undefined ? {} : { "content-type": "application/json" }), ...options.headers },
      },
      (res) => {
        let text = "";
        let ended = false;
        const watchers = new Set<() => void>();
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          text += chunk;
          for (const w of [...watchers]) w();
        });
        const finish = () => {
          ended = true;
          for (const w of [...watchers]) w();
        };
        res.on("end", finish);
        res.on("close", finish);
        res.on("error", finish);
        const until = (predicate: (t: string) => boolean, what: string) =>
          new Promise<string>((ok, fail) => {
            const check = () => {
              if (predicate(text)) {
                watchers.delete(check);
                ok(text);
              } else if (ended) {
                watchers.delete(check);
                fail(new Error(`response ended before ${what}; got:\n${text}`));
              }
            };
            watchers.add(check);
            check();
          });
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          text: () => text,
          until,
          done: () => until(() => ended, "its end"),
          abort: () => req.destroy(),
        });
      },
    );
    req.on("error", reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

/** Splits an SSE body into frames (blank-line separated), keeping heartbeat comment lines as their own entries. */
export function framesOf(text: string): string[] {
  const out: string[] = [];
  let current = "";
  for (const line of text.split("\n").slice(0, -1)) {
    if (line.startsWith(":") && current === "") {
      out.push(`${line}\n`);
      continue;
    }
    if (line === "") {
      out.push(`${current}\n`);
      current = "";
    } else current += `${line}\n`;
  }
  return out;
}

/** Parses one event frame (`event`, `data`, optional `id`). */
export function parseFrame(frame: string): { event: string; data: unknown; id?: string } {
  const fields = new Map<string, string>();
  for (const line of frame.split("\n")) {
    const i = line.indexOf(": ");
    if (i > 0) fields.set(line.slice(0, i), line.slice(i + 2));
  }
  const id = fields.get("id");
  return {
    event: fields.get("event") ?? "",
    data: JSON.parse(fields.get("data") ?? "null"),
    ...(id === undefined ? {} : { id }),
  };
}
