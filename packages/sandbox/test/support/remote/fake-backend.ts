/**
 * An in-memory {@link SandboxBackend} whose sandboxes answer the readiness
 * probe through {@link FakeBackend.fetch}, for provider unit tests.
 */
import type { SandboxBackend, SandboxEndpoint, SandboxListing } from "../../../src/remote/client/sandbox-backend.js";

interface FakeSandbox {
  readonly url: string;
  /** Readiness probes to fail before answering 200. */
  pendingProbes: number;
}

/** Records every call; `alive` can be flipped to simulate a crashed sandbox. */
export class FakeBackend implements SandboxBackend {
  readonly sandboxes = new Map<string, FakeSandbox>();
  readonly calls: string[] = [];
  /** Probes each new sandbox fails before it is ready. */
  probesBeforeReady = 0;
  /** Awaited by `isAlive` between looking and answering (an answer in flight). */
  aliveGate: Promise<void> | undefined;

  count(kind: "create" | "destroy" | "discover" | "isAlive"): number {
    return this.calls.filter((call) => call.startsWith(`${kind}:`)).length;
  }

  /** Adds a running sandbox as if another process had created it. */
  seed(id: string): void {
    this.sandboxes.set(id, { url: `http://fake.test/${id}`, pendingProbes: 0 });
  }

  async create(id: string): Promise<SandboxEndpoint> {
    this.calls.push(`create:${id}`);
    const sandbox = { url: `http://fake.test/${id}`, pendingProbes: this.probesBeforeReady };
    this.sandboxes.set(id, sandbox);
    return { url: sandbox.url };
  }

  async discover(id: string): Promise<SandboxEndpoint | null> {
    this.calls.push(`discover:${id}`);
    const sandbox = this.sandboxes.get(id);
    return sandbox === undefined ? null : { url: sandbox.url };
  }

  async destroy(id: string): Promise<void> {
    this.calls.push(`destroy:${id}`);
    this.sandboxes.delete(id);
  }

  async list(): Promise<readonly SandboxListing[]> {
    return [...this.sandboxes].map(([id, s]) => ({ id, url: s.url }));
  }

  async isAlive(id: string): Promise<boolean> {
    this.calls.push(`isAlive:${id}`);
    const alive = this.sandboxes.has(id);
    await this.aliveGate;
    return alive;
  }

  /** Answers `GET <url>/v1/sandbox` (and 200 `{}`-data for everything else) for live sandboxes. */
  readonly fetch: typeof fetch = async (input) => {
    const url = new URL(String(input));
    const id = url.pathname.split("/")[1] ?? "";
    const sandbox = this.sandboxes.get(id);
    if (sandbox === undefined)
      return Response.json({ error: { code: "SANDBOX_NOT_FOUND", message: "gone" } }, { status: 404 });
    if (sandbox.pendingProbes > 0) {
      sandbox.pendingProbes--;
      return Response.json({ error: { code: "UNAVAILABLE", message: "starting" } }, { status: 503 });
    }
    return Response.json({
      success: true,
      data: { stdout: "", stderr: "", exit_code: 0, signal: null, timed_out: false, truncated: false },
    });
  };
}
