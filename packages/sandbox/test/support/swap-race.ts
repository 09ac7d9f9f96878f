/**
 * The swapped-parent race, end to end: a command inside the sandbox exchanges
 * two workspace folders with symlinks in a tight loop (one pointing at a host
 * folder outside every sandbox, one at another thread's workspace) while the
 * test fires write_file / append / str_replace / mkdir -p calls below those
 * folders. Afterwards nothing may have appeared outside the thread's own
 * folders, and every call must have either landed inside or failed with a
 * clear error. Shared by the local (tools) and remote (HTTP API) runs.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { expect } from "vitest";
import type { Sandbox } from "../../src/index.js";
import { SWAP_FILES, swapLoopCommand } from "../../src/testing/swap-command.js";

/** What one file call reported. */
export type CallOutcome = { readonly ok: true } | { readonly ok: false; readonly error: string };

/** The file calls under attack, as the provider under test exposes them. */
export interface RaceCalls {
  write(virtualPath: string, content: string): Promise<CallOutcome>;
  append(virtualPath: string, content: string): Promise<CallOutcome>;
  strReplace(virtualPath: string, oldText: string, newText: string): Promise<CallOutcome>;
}

/** Where the race happens. */
export interface RaceSetup {
  /** The attacker's sandbox (runs the swap loop). */
  readonly sandbox: Sandbox;
  /** Host folder of the attacker's `/mnt/user-data/workspace`. */
  readonly workspace: string;
  /** Host folder of another thread's workspace (must stay as it was). */
  readonly victim: string;
  /** A host folder outside every sandbox (must stay as it was). */
  readonly outside: string;
  readonly calls: RaceCalls;
  /** File calls in total (a quarter of each kind). */
  readonly rounds: number;
  /** Calls in flight at once. */
  readonly concurrency: number;
  /** Accepts the error of a refused call (the provider's wording of a clear refusal). */
  readonly isClearError: (error: string) => boolean;
}

/** What the race did, for the caller's extra assertions. */
export interface RaceReport {
  readonly succeeded: number;
  readonly refused: number;
  readonly swaps: string;
  readonly errors: ReadonlyMap<string, number>;
}

const WS = "/mnt/user-data/workspace";
const RACE_DIR = "race";
const PAIRS = [
  { dir: "d", link: "ld" },
  { dir: "e", link: "le" },
] as const;

type Kind = "write" | "append" | "strReplace" | "mkdirP";
const KINDS: readonly Kind[] = ["write", "append", "strReplace", "mkdirP"];

interface PlannedCall {
  readonly kind: Kind;
  /** Path relative to the race folder, e.g. `d/w12.txt`. */
  readonly relative: string;
  /** What the file must hold afterwards when the call succeeded. */
  readonly expected: string;
}

function plan(rounds: number): PlannedCall[] {
  return Array.from({ length: rounds }, (_, i) => {
    const kind = KINDS[i % KINDS.length] as Kind;
    const dir = PAIRS[Math.floor(i / KINDS.length) % PAIRS.length]?.dir as string;
    switch (kind) {
      case "write":
        return { kind, relative: `${dir}/w${i}.txt`, expected: `attacker-controlled write ${i}\n` };
      case "append":
        return { kind, relative: `${dir}/a${i}.txt`, expected: `attacker-controlled append ${i}\n` };
      case "strReplace":
        return { kind, relative: `${dir}/s${i}.txt`, expected: `after ${i}\n` };
      case "mkdirP":
        return { kind, relative: `${dir}/n${i}/x/y.txt`, expected: `attacker-controlled nested ${i}\n` };
    }
  });
}

/** Every file below `dir` with its content (symlinks by target), for before/after comparison. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const visit = async (current: string, prefix: string): Promise<void> => {
    for (const entry of await fs.readdir(current, { withFileTypes: true })) {
      const rel = `${prefix}${entry.name}`;
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) {
        out[`${rel}/`] = "";
        await visit(full, `${rel}/`);
      } else if (entry.isSymbolicLink()) out[rel] = `-> ${await fs.readlink(full)}`;
      else out[rel] = await fs.readFile(full, "utf8");
    }
  };
  await visit(dir, "");
  return out;
}

async function waitForFile(file: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await fs.access(file);
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`${path.basename(file)} did not appear within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

async function pool<T>(items: readonly T[], concurrency: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await run(items[next++] as T);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

/**
 * Runs the race and asserts its outcome.
 *
 * @param setup - Sandbox, host folders, the calls and the rounds.
 * @returns Counts, for logging.
 */
export async function runSwapRace(setup: RaceSetup): Promise<RaceReport> {
  const raceHost = path.join(setup.workspace, RACE_DIR);
  const raceVirtual = `${WS}/${RACE_DIR}`;
  const calls = plan(setup.rounds);

  // The links are relative, as an agent would write them: enough `..` to reach the host's root, then the target.
  const toRoot = "../".repeat(raceHost.split("/").length - 1);
  const targets = { ld: `${toRoot}${setup.outside.slice(1)}`, le: path.relative(raceHost, setup.victim) };
  const prepare = await setup.sandbox.execute(
    `mkdir -p ${RACE_DIR}/d ${RACE_DIR}/e && cd ${RACE_DIR} && ln -s '${targets.ld}' ld && ln -s '${targets.le}' le`,
  );
  expect(prepare.exitCode, prepare.stderr).toBe(0);
  // str_replace needs its files; decoys with the same names sit outside, so a call that follows a link has something to change.
  for (const call of calls.filter((c) => c.kind === "strReplace")) {
    const n = call.relative.replace(/\D+/g, "");
    await setup.sandbox.writeFile(`${raceVirtual}/${call.relative}`, `before ${n}\n`);
    const name = path.basename(call.relative);
    await fs.writeFile(path.join(call.relative.startsWith("d/") ? setup.outside : setup.victim, name), `before ${n}\n`);
  }
  const outsideBefore = await snapshot(setup.outside);
  const victimBefore = await snapshot(setup.victim);

  const loop = setup.sandbox.execute(swapLoopCommand(PAIRS), { cwd: raceVirtual, timeoutMs: 180_000 });
  const errors = new Map<string, number>();
  const unclear: string[] = [];
  const landed: PlannedCall[] = [];
  try {
    await Promise.race([
      waitForFile(path.join(raceHost, SWAP_FILES.started), 60_000),
      loop.then((r) => Promise.reject(new Error(`swap loop ended early: ${r.stderr}`))),
    ]);
    await pool(calls, setup.concurrency, async (call) => {
      const at = `${raceVirtual}/${call.relative}`;
      const outcome =
        call.kind === "append"
          ? await setup.calls.append(at, call.expected)
          : call.kind === "strReplace"
            ? await setup.calls.strReplace(
                at,
                `before ${call.relative.replace(/\D+/g, "")}`,
                `after ${call.relative.replace(/\D+/g, "")}`,
              )
            : await setup.calls.write(at, call.expected);
      if (outcome.ok) {
        landed.push(call);
        return;
      }
      const key = outcome.error.replace(/\/mnt\/\S+/g, "<path>");
      errors.set(key, (errors.get(key) ?? 0) + 1);
      if (!setup.isClearError(outcome.error)) unclear.push(outcome.error);
    });
  } finally {
    await fs.writeFile(path.join(raceHost, SWAP_FILES.stop), "");
  }
  const loopResult = await loop;
  expect(loopResult.exitCode, loopResult.stderr).toBe(0);
  const swaps = await fs.readFile(path.join(raceHost, SWAP_FILES.count), "utf8");

  // Nothing outside the thread's folders changed: no new files, no changed decoys.
  expect(await snapshot(setup.outside)).toEqual(outsideBefore);
  expect(await snapshot(setup.victim)).toEqual(victimBefore);
  // Every reported success is inside, with its content.
  const missing: string[] = [];
  for (const call of landed) {
    const content = await fs.readFile(path.join(raceHost, call.relative), "utf8").catch(() => undefined);
    if (content !== call.expected) missing.push(`${call.kind} ${call.relative}: ${JSON.stringify(content)}`);
  }
  expect(missing).toEqual([]);
  expect(unclear).toEqual([]);
  // The attack was live: the loop swapped, and calls met the links.
  expect(Number.parseInt(swaps, 10)).toBeGreaterThan(0);
  expect(setup.rounds - landed.length).toBeGreaterThan(0);
  return { succeeded: landed.length, refused: setup.rounds - landed.length, swaps, errors };
}
