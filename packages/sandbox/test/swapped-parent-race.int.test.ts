/**
 * The swapped-parent race (issue 12, finding 1) against the real bubblewrap
 * sandbox, through the agent tools (local provider) and through the remote
 * service's HTTP API (remote provider): a command swaps workspace folders with
 * symlinks leading to a host folder and to another thread's workspace while
 * 1,200 concurrent write_file / append / str_replace / mkdir -p calls run
 * below them. Without bubblewrap the file is skipped, except in CI
 * (`CI=true`), where a missing bwrap fails it.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BubblewrapRunner, LocalSandboxProvider, RemoteSandboxProvider, createSandboxTools } from "../src/index.js";
import { createProviderFolders, createTempRoot } from "./support/local-fixture.js";
import { startRemoteService } from "./support/remote-service.js";
import { runSwapRace, type CallOutcome, type RaceCalls } from "./support/swap-race.js";

const available = await BubblewrapRunner.isAvailable();
if (!available && process.env["CI"] === "true") {
  throw new Error(
    "bubblewrap (bwrap) is missing or unusable in CI: install it (`apt-get install bubblewrap`; .ci/run does this as root)",
  );
}

const ROUNDS = 1200;
const root = available ? await createTempRoot("sbx-swap-race") : "";
afterAll(async () => {
  if (root !== "") await fs.rm(root, { recursive: true, force: true });
});

/** A host folder outside every sandbox (the server, running as root, could write there; nothing else in the test does). */
async function outsideFolder(label: string): Promise<string> {
  const dir = path.join(root, `outside-${label}`);
  await fs.mkdir(dir);
  return dir;
}

describe.skipIf(!available)(
  available
    ? "swapped-parent race"
    : "swapped-parent race: SKIPPED, bubblewrap (bwrap) is not installed or not usable here",
  () => {
    it(`local provider (bubblewrap), agent tools: ${ROUNDS} calls land inside or are refused`, async () => {
      const { baseDir } = await createProviderFolders(root);
      const provider = new LocalSandboxProvider({ baseDir, runner: new BubblewrapRunner() });
      try {
        const sandbox = await provider.acquire("attacker", "mallory");
        await provider.acquire("victim", "alice");
        await fs.writeFile(
          path.join(provider.threadPaths("victim", "alice").workspace, "notes.txt"),
          "alice's notes\n",
        );
        const tools = createSandboxTools({ sandbox });
        const writeFile = tools.find((t) => t.name === "write_file");
        const strReplace = tools.find((t) => t.name === "str_replace");
        if (writeFile === undefined || strReplace === undefined) throw new Error("tools missing");
        const outcome = (text: unknown): CallOutcome =>
          text === "OK" ? { ok: true } : { ok: false, error: String(text) };
        const calls: RaceCalls = {
          write: async (p, content) => outcome(await writeFile.invoke({ path: p, content })),
          append: async (p, content) => outcome(await writeFile.invoke({ path: p, content, append: true })),
          strReplace: async (p, oldStr, newStr) =>
            outcome(await strReplace.invoke({ path: p, old_str: oldStr, new_str: newStr })),
        };
        const report = await runSwapRace({
          sandbox,
          workspace: provider.threadPaths("attacker", "mallory").workspace,
          victim: provider.threadPaths("victim", "alice").workspace,
          outside: await outsideFolder("local"),
          calls,
          rounds: ROUNDS,
          concurrency: 24,
          isClearError: (e) =>
            /^Error: (Permission denied (writing to|accessing) file|Access denied: path escapes mounted directory): \/mnt\//.test(
              e,
            ),
        });
        expect(report.succeeded).toBeGreaterThan(0);
      } finally {
        await provider.shutdown();
      }
    }, 120_000);

    it(`remote provider (service over HTTP, bubblewrap behind it): ${ROUNDS} calls land inside or are refused`, async () => {
      const { baseDir } = await createProviderFolders(root);
      const service = await startRemoteService(["--base-dir", baseDir, "--log-level", "warn"]);
      const provider = new RemoteSandboxProvider({ url: service.url, idleTimeoutMs: 0 });
      try {
        const sandbox = await provider.acquire("attacker", "mallory");
        await provider.acquire("victim", "alice");
        // The service may namespace users per client (`<client>.<user>`): find each thread's folder by its user's suffix.
        const users = await fs.readdir(path.join(baseDir, "users"));
        const threadFolder = (user: string, thread: string): string => {
          const dir = users.find((u) => u === user || u.endsWith(`.${user}`));
          if (dir === undefined) throw new Error(`no folder for user ${user} among ${users.join(", ")}`);
          return path.join(baseDir, "users", dir, "threads", thread, "user-data", "workspace");
        };
        await fs.writeFile(path.join(threadFolder("alice", "victim"), "notes.txt"), "alice's notes\n");
        // Straight to the wire, so calls run concurrently (a RemoteSandbox serialises its file calls).
        const post = async (
          route: string,
          body: object,
        ): Promise<{ ok: boolean; data?: { content?: string }; code?: string }> => {
          const response = await fetch(`${sandbox.url}/v1/file/${route}`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify(body),
          });
          const json = (await response.json()) as {
            success: boolean;
            data?: { content?: string };
            error?: { code: string; message: string };
          };
          return json.success
            ? { ok: true, ...(json.data === undefined ? {} : { data: json.data }) }
            : { ok: false, code: `${json.error?.code}: ${json.error?.message}` };
        };
        const outcome = (r: { ok: boolean; code?: string }): CallOutcome =>
          r.ok ? { ok: true } : { ok: false, error: r.code ?? "?" };
        const calls: RaceCalls = {
          write: async (file, content) => outcome(await post("write", { file, content })),
          append: async (file, content) => outcome(await post("write", { file, content, append: true })),
          strReplace: async (file, oldStr, newStr) => {
            const read = await post("read", { file });
            if (!read.ok) return outcome(read);
            return outcome(await post("write", { file, content: (read.data?.content ?? "").replace(oldStr, newStr) }));
          },
        };
        const report = await runSwapRace({
          sandbox,
          workspace: threadFolder("mallory", "attacker"),
          victim: threadFolder("alice", "victim"),
          outside: await outsideFolder("remote"),
          calls,
          rounds: ROUNDS,
          concurrency: 16,
          isClearError: (e) => /^PATH_ESCAPE: Access denied: path escapes mounted directory$/.test(e),
        });
        expect(report.succeeded).toBeGreaterThan(0);
      } finally {
        await provider.shutdown().catch(() => undefined);
        await service.stop();
      }
    }, 120_000);
  },
);
