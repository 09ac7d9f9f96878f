import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Logger } from "../../logger.js";
import { FakeBackend } from "../../../test/support/remote/fake-backend.js";
import { ManualClock } from "../../../test/support/remote/manual-clock.js";
import { RemoteSandboxProvider } from "./remote-sandbox-provider.js";
import type { RemoteSandboxProviderOptions } from "./remote-sandbox-provider-options.js";
import { sandboxIdFor } from "./sandbox-id.js";

function recordingLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  const noop = (): void => {};
  return { debug: noop, info: noop, error: noop, warn: (_obj, msg) => warnings.push(msg), warnings };
}

describe("sandboxIdFor", () => {
  it("is the first 16 hex characters of sha256(user:thread)", () => {
    expect(sandboxIdFor("t1")).toBe("eeb6544e5ffa968d");
    expect(sandboxIdFor("thread-42", "alice")).toBe("81fe92a7340db695");
  });
});

describe("RemoteSandboxProvider", () => {
  let backend: FakeBackend;
  let clock: ManualClock;
  let provider: RemoteSandboxProvider;

  function make(options: Partial<RemoteSandboxProviderOptions> = {}): RemoteSandboxProvider {
    provider = new RemoteSandboxProvider({ backend, clock, fetch: backend.fetch, ...options });
    return provider;
  }

  beforeEach(() => {
    backend = new FakeBackend();
    clock = new ManualClock();
  });

  afterEach(async () => {
    await provider.shutdown();
  });

  it("creates a sandbox with the deterministic id and its backend url", async () => {
    const sandbox = await make().acquire("t1");
    expect(sandbox.id).toBe("eeb6544e5ffa968d");
    expect(sandbox.url).toBe("http://fake.test/eeb6544e5ffa968d");
    expect(backend.count("create")).toBe(1);
    expect(provider.get(sandbox.id)).toBe(sandbox);
  });

  it("gives concurrent acquires of one thread the same sandbox", async () => {
    make();
    const [a, b, c] = await Promise.all([
      provider.acquire("t1", "u"),
      provider.acquire("t1", "u"),
      provider.acquire("t1", "u"),
    ]);
    expect(a).toBe(b);
    expect(b).toBe(c);
    expect(backend.count("create")).toBe(1);
  });

  it("gives different users of one thread different sandboxes", async () => {
    make();
    const a = await provider.acquire("t1", "alice");
    const b = await provider.acquire("t1", "bob");
    expect(a.id).not.toBe(b.id);
  });

  it("polls readiness until the sandbox answers", async () => {
    backend.probesBeforeReady = 3;
    make({ readyIntervalMs: 250 });
    const start = clock.now();
    await provider.acquire("t1");
    expect(clock.now() - start).toBe(750);
  });

  it("gives up after the readiness timeout with UNAVAILABLE and destroys what it created", async () => {
    backend.probesBeforeReady = 1_000;
    make({ readyIntervalMs: 250, readyTimeoutMs: 1_000 });
    await expect(provider.acquire("t1")).rejects.toMatchObject({ code: "UNAVAILABLE" });
    expect(backend.count("destroy")).toBe(1);
    expect(provider.snapshot()).toEqual({ active: [], warm: [] });
  });

  it("adopts a running sandbox the backend discovers instead of creating one", async () => {
    backend.seed(sandboxIdFor("t1"));
    const sandbox = await make().acquire("t1");
    expect(sandbox.id).toBe(sandboxIdFor("t1"));
    expect(backend.count("create")).toBe(0);
  });

  it("parks a released sandbox in the warm pool and reuses it", async () => {
    make();
    const first = await provider.acquire("t1");
    await provider.release(first.id);
    expect(provider.snapshot()).toEqual({ active: [], warm: [first.id] });
    expect(provider.get(first.id)).toBeUndefined();
    const again = await provider.acquire("t1");
    expect(again).toBe(first);
    expect(backend.count("create")).toBe(1);
    expect(provider.snapshot()).toEqual({ active: [first.id], warm: [] });
  });

  it("replaces a tracked sandbox that died", async () => {
    make();
    const first = await provider.acquire("t1");
    backend.sandboxes.delete(first.id);
    const second = await provider.acquire("t1");
    expect(second).not.toBe(first);
    expect(backend.count("create")).toBe(2);
    await expect(first.readFile("/mnt/user-data/a")).rejects.toMatchObject({ code: "UNAVAILABLE" });
  });

  it("evicts the least recently released warm sandbox at the cap", async () => {
    make({ maxSandboxes: 2 });
    const a = await provider.acquire("a");
    const b = await provider.acquire("b");
    await provider.release(a.id);
    await provider.release(b.id);
    await provider.acquire("a");
    await provider.release(a.id);
    const c = await provider.acquire("c");
    expect(backend.calls.filter((call) => call.startsWith("destroy:"))).toEqual([`destroy:${b.id}`]);
    expect(provider.snapshot()).toEqual({ active: [c.id], warm: [a.id] });
  });

  it("never evicts active sandboxes: the cap is soft and a warning is logged", async () => {
    const logger = recordingLogger();
    make({ maxSandboxes: 1, logger });
    await provider.acquire("a");
    await provider.acquire("b");
    expect(provider.snapshot().active).toHaveLength(2);
    expect(backend.count("destroy")).toBe(0);
    expect(logger.warnings).toEqual(["sandbox cap reached and every sandbox is active; creating one more (soft cap)"]);
  });

  it("keeps concurrent creates within the cap", async () => {
    make({ maxSandboxes: 2 });
    const warm = await provider.acquire("w");
    await provider.release(warm.id);
    await Promise.all([provider.acquire("x"), provider.acquire("y")]);
    expect(backend.calls).toContain(`destroy:${warm.id}`);
    expect(provider.snapshot().warm).toEqual([]);
  });

  it("does not hand out a warm sandbox evicted while its liveness was being checked", async () => {
    make({ maxSandboxes: 2 });
    const a = await provider.acquire("a");
    const b = await provider.acquire("b");
    await provider.release(a.id);
    await provider.release(b.id);
    let open!: () => void;
    backend.aliveGate = new Promise((resolve) => (open = resolve));
    const again = provider.acquire("a"); // checks a's liveness...
    const c = provider.acquire("c"); // ...while c's create evicts a, the oldest warm entry
    await vi.waitFor(() => expect(backend.calls).toContain(`destroy:${a.id}`));
    open();
    const [reacquired] = await Promise.all([again, c]);
    expect(backend.sandboxes.has(reacquired.id)).toBe(true);
    await expect(reacquired.execute("true")).resolves.toMatchObject({ exitCode: 0 });
  });

  it("reaps active sandboxes idle for idleTimeoutMs", async () => {
    make({ idleTimeoutMs: 1_000 });
    const sandbox = await provider.acquire("t1");
    clock.time += 999;
    expect(await provider.reapIdle()).toEqual([]);
    clock.time += 1;
    expect(await provider.reapIdle()).toEqual([sandbox.id]);
    expect(backend.sandboxes.size).toBe(0);
    expect(provider.get(sandbox.id)).toBeUndefined();
  });

  it("counts requests as activity", async () => {
    make({ idleTimeoutMs: 1_000 });
    const sandbox = await provider.acquire("t1");
    clock.time += 900;
    await sandbox.execute("true");
    clock.time += 900;
    expect(await provider.reapIdle()).toEqual([]);
  });

  it("does not reap a sandbox with a request in flight", async () => {
    let release!: () => void;
    const slowFetch: typeof fetch = async (input, init) => {
      if (String(input).endsWith("/v1/shell/exec")) await new Promise<void>((resolve) => (release = resolve));
      return backend.fetch(input, init);
    };
    make({ idleTimeoutMs: 1_000, fetch: slowFetch });
    const sandbox = await provider.acquire("t1");
    const running = sandbox.execute("sleep 5");
    clock.time += 5_000;
    expect(await provider.reapIdle()).toEqual([]);
    release();
    await running;
  });

  it("reaps warm sandboxes released longer than idleTimeoutMs ago", async () => {
    make({ idleTimeoutMs: 1_000 });
    const sandbox = await provider.acquire("t1");
    clock.time += 900;
    await provider.release(sandbox.id);
    clock.time += 900;
    expect(await provider.reapIdle()).toEqual([]);
    clock.time += 100;
    expect(await provider.reapIdle()).toEqual([sandbox.id]);
    expect(provider.snapshot()).toEqual({ active: [], warm: [] });
  });

  it("runs the reaper on its interval", async () => {
    make({ idleTimeoutMs: 1_000, reapIntervalMs: 60_000 });
    const sandbox = await provider.acquire("t1");
    clock.tick(60_000);
    await expect.poll(() => backend.calls).toContain(`destroy:${sandbox.id}`);
  });

  it("starts no reaper when idleTimeoutMs is 0", async () => {
    make({ idleTimeoutMs: 0 });
    const sandbox = await provider.acquire("t1");
    clock.time += 10_000_000;
    expect(clock.timers).toBe(0);
    expect(await provider.reapIdle()).toEqual([]);
    expect(provider.get(sandbox.id)).toBe(sandbox);
  });

  it("destroys every tracked sandbox on shutdown and refuses later acquires", async () => {
    make();
    const a = await provider.acquire("a");
    const b = await provider.acquire("b");
    await provider.release(b.id);
    await provider.shutdown();
    expect(backend.sandboxes.size).toBe(0);
    expect(clock.timers).toBe(0);
    expect(provider.get(a.id)).toBeUndefined();
    await expect(provider.acquire("a")).rejects.toMatchObject({ code: "UNAVAILABLE" });
    await expect(a.execute("ls")).rejects.toMatchObject({ code: "UNAVAILABLE" });
  });

  it("rejects an empty thread id", async () => {
    await expect(make().acquire("")).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
  });

  it("rejects options without a backend or with a bad cap", () => {
    expect(() => new RemoteSandboxProvider({})).toThrow(expect.objectContaining({ code: "CONFIG_INVALID" }));
    expect(() => new RemoteSandboxProvider({ backend, maxSandboxes: 0 })).toThrow(
      expect.objectContaining({ code: "CONFIG_INVALID" }),
    );
    provider = new RemoteSandboxProvider({ backend, clock });
  });
});
