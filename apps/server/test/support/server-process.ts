/**
 * A `deerflow-server` child process (`node --import tsx src/main.ts`) for end-to-end
 * tests: started on a free port (`--port 0`), its URL read from the structured
 * `listening` log record, its JSON logs kept for assertions.
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import readline from "node:readline";
import { fileURLToPath } from "node:url";

/** apps/server */
const APP_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** A running server process. */
export class ServerProcess {
  readonly child: ChildProcess;
  /** Parsed JSON log records (stdout), in order. */
  readonly records: Record<string, unknown>[] = [];
  /** Non-JSON output (stderr and stray lines), for failure messages. */
  readonly other: string[] = [];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  url = "";

  private constructor(child: ChildProcess) {
    this.child = child;
    this.exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
    readline.createInterface({ input: child.stdout! }).on("line", (line) => {
      try {
        this.records.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        this.other.push(line);
      }
    });
    readline.createInterface({ input: child.stderr! }).on("line", (line) => this.other.push(line));
  }

  /**
   * Starts `src/main.ts` with `args` and `env`; resolves once it logs `listening`.
   *
   * @throws when the process exits first (with its output)
   */
  static async start(args: readonly string[], env: NodeJS.ProcessEnv): Promise<ServerProcess> {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "src/main.ts", "--port", "0", "--host", "127.0.0.1", ...args],
      {
        cwd: APP_DIR,
        env,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    const server = new ServerProcess(child);
    await new Promise<void>((resolve, reject) => {
      const timer = setInterval(() => {
        const listening = server.records.find((r) => r["event"] === "listening");
        if (listening !== undefined) {
          clearInterval(timer);
          server.url = String(listening["url"]);
          resolve();
        }
      }, 50);
      void server.exited.then(({ code, signal }) => {
        clearInterval(timer);
        reject(new Error(`server exited (${code ?? signal}) before listening:\n${server.output()}`));
      });
    });
    return server;
  }

  /** Everything the process printed, for failure messages. */
  output(): string {
    return [...this.records.map((r) => JSON.stringify(r)), ...this.other].join("\n");
  }

  /** Log messages. */
  messages(): string[] {
    return this.records.map((r) => String(r["msg"]));
  }

  /** Sends a signal and waits for the exit. */
  async stop(signal: NodeJS.Signals = "SIGTERM"): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
    return this.exited;
  }
}
