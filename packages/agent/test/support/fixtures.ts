/**
 * Fixtures of the agent's tests: temp folders removed after the test, a local
 * sandbox provider on host commands, in-memory skills, a provider that counts
 * acquisitions, and a tool that never finishes.
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { LocalSandboxProvider, createDefaultRunner, type Sandbox, type SandboxProvider } from "@deerflow/sandbox";
import type { Skill, SkillSource } from "@deerflow/skills";
import { tool } from "@langchain/core/tools";
import { onTestFinished } from "vitest";

/** A temp folder, removed when the current test finishes. */
async function tempDir(): Promise<string> {
  const dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "deerflow-agent-")));
  onTestFinished(() => fs.rm(dir, { recursive: true, force: true }));
  return dir;
}

/** A LocalSandboxProvider in a temp folder (bubblewrap when available, else host commands), shut down after the test. */
export async function localProvider(): Promise<LocalSandboxProvider> {
  const provider = new LocalSandboxProvider({
    baseDir: await tempDir(),
    runner: await createDefaultRunner({ allowHostBash: true }),
  });
  onTestFinished(() => provider.shutdown());
  return provider;
}

/** A public skill as a catalog lists it (nothing on disk). */
export function publicSkill(name: string, enabled = true): Skill {
  return {
    name,
    description: `The ${name} skill. Use it for ${name.replace(/-/g, " ")}.`,
    skillDir: `/skills/public/${name}`,
    skillFile: `/skills/public/${name}/SKILL.md`,
    relativePath: name,
    category: "public",
    enabled,
    metadata: {},
    requiredSecrets: [],
    secretsAutonomous: true,
  };
}

/** A skill source over a fixed list (mutable: tests flip `enabled`). */
export function memorySkills(skills: Skill[]): SkillSource & { skills: Skill[] } {
  return { skills, list: async () => skills };
}

/** What {@link countingProvider} saw. */
export interface ProviderLog {
  /** Acquisitions not yet released, by sandbox id. */
  readonly held: Map<string, number>;
  readonly events: string[];
}

/** A provider handing out inert sandboxes and counting acquire/release per sandbox id. */
export function countingProvider(): SandboxProvider & { log: ProviderLog } {
  const log: ProviderLog = { held: new Map(), events: [] };
  const sandboxes = new Map<string, Sandbox>();
  return {
    log,
    acquire: async (threadId, userId = "default") => {
      const id = `fake:${userId}:${threadId}`;
      log.events.push(`acquire ${id}`);
      log.held.set(id, (log.held.get(id) ?? 0) + 1);
      let sandbox = sandboxes.get(id);
      if (sandbox === undefined) {
        sandbox = { id } as Sandbox;
        sandboxes.set(id, sandbox);
      }
      return sandbox;
    },
    get: (id) => sandboxes.get(id),
    release: async (id) => {
      log.events.push(`release ${id}`);
      const left = (log.held.get(id) ?? 0) - 1;
      if (left > 0) log.held.set(id, left);
      else log.held.delete(id);
    },
    shutdown: async () => {},
  };
}

/**
 * A tool that never finishes: it rejects with an `AbortError` when its call's signal aborts.
 *
 * @param name - the tool's name
 * @returns the tool and a promise resolved once it has been called
 */
export function hangingTool(name: string) {
  let started!: () => void;
  const called = new Promise<void>((resolve) => (started = resolve));
  const hang = tool(
    (_args: Record<string, never>, cfg) =>
      new Promise<string>((_, reject) => {
        started();
        cfg?.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")), { once: true });
      }),
    { name, description: "Never finishes", schema: { type: "object", properties: {} } },
  );
  return { tool: hang, called };
}
