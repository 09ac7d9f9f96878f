/**
 * The swapped-parent race through the file API: while a command of the
 * sandbox exchanges a folder with a symlink leading out of the sandbox in a
 * tight loop, file calls below that folder must either land inside (and be
 * found there afterwards) or fail with a `SandboxError`; nothing may be
 * written to, created in or read from the link's target. An implementation
 * that resolves a path and then opens it by host path fails this check.
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { SandboxError, type SandboxErrorCode } from "../errors.js";
import { expectSuccess, shellQuote, waitFor, type Kit } from "./context.js";
import { SWAP_FILES, swapLoopCommand } from "./swap-command.js";

/** File calls made during the race. */
const SWAPPED_PARENT_ROUNDS = 400;
/** Calls in flight at once. */
const CONCURRENCY = 8;
/** What a refused call may say: the swapped folder is, at that instant, a link out of the mount (or gone, with a non-atomic swap). */
const REFUSALS: readonly SandboxErrorCode[] = ["PATH_ESCAPE", "NOT_FOUND", "NOT_A_DIRECTORY"];

const INSIDE = "kit: the sandbox's own file\n";
const OUTSIDE = "kit: a host file outside every sandbox\n";
/** Exists on both sides: inside with {@link INSIDE}, behind the link with {@link OUTSIDE}. */
const SHARED_NAME = "kit-secret.txt";
/** Exists only behind the link: a listing that shows it listed the host folder. */
const OUTSIDE_ONLY = "kit-outside-only.txt";

type Call =
  | { readonly kind: "write" | "append" | "bytes" | "nested"; readonly path: string; readonly content: string }
  | { readonly kind: "read" | "readBytes" | "list"; readonly path: string };

/** Registers the swapped-parent check. */
export function swappedParentTests(kit: Kit): void {
  const { expect } = kit;
  kit.test(
    `file calls below a folder swapped for an escaping symlink land inside or are refused (${SWAPPED_PARENT_ROUNDS} calls)`,
    async () => {
      const s = kit.sandbox();
      const root = kit.dir("swapped-parent");
      // A host folder the link points at; a sandbox on this host must leave it exactly as it is.
      const outside = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "kit-swap-")));
      try {
        await fs.writeFile(path.join(outside, SHARED_NAME), OUTSIDE);
        await fs.writeFile(path.join(outside, OUTSIDE_ONLY), OUTSIDE);
        const target = `${"../".repeat(64)}${outside.slice(1)}`;
        expectSuccess(
          kit,
          await s.execute(
            `mkdir -p ${shellQuote(`${root}/d`)} && cd ${shellQuote(root)} && ln -s ${shellQuote(target)} ld`,
          ),
        );
        await s.writeFile(`${root}/d/${SHARED_NAME}`, INSIDE);

        const loop = s.execute(swapLoopCommand([{ dir: "d", link: "ld" }]), { cwd: root, timeoutMs: kit.ms(120_000) });
        const calls = plan(root);
        const failures: string[] = [];
        const landed: Call[] = [];
        let refused = 0;
        try {
          const started = await waitFor(
            () =>
              s.readFile(`${root}/${SWAP_FILES.started}`).then(
                () => true,
                () => false,
              ),
            kit.ms(60_000),
          );
          expect(started, "the swap loop did not start (the sandbox needs perl, python3 or mv and ln)").toBe(true);
          let next = 0;
          const worker = async (): Promise<void> => {
            while (next < calls.length) {
              const call = calls[next++] as Call;
              try {
                const seen = await perform(kit, call);
                if (seen === undefined) landed.push(call);
                else if (call.kind === "list" ? seen.includes(OUTSIDE_ONLY) : seen !== INSIDE) {
                  failures.push(
                    `${call.kind} ${call.path} saw ${seen.includes(OUTSIDE) || seen.includes(OUTSIDE_ONLY) ? "the link's target" : JSON.stringify(kit.redact(seen.slice(0, 80)))}`,
                  );
                }
              } catch (err) {
                refused += 1;
                if (!SandboxError.isInstance(err) || !REFUSALS.includes(err.code)) {
                  failures.push(
                    `${call.kind} ${call.path} failed with ${kit.redact(SandboxError.isInstance(err) ? `${err.code}: ${err.message}` : String(err))}`,
                  );
                }
              }
            }
          };
          await Promise.all(Array.from({ length: CONCURRENCY }, worker));
        } finally {
          await s.writeFile(`${root}/${SWAP_FILES.stop}`, "");
        }
        expectSuccess(kit, await loop);
        expect(failures).toEqual([]);
        // The host folder behind the link is untouched: nothing created, nothing changed.
        expect((await fs.readdir(outside)).sort()).toEqual([SHARED_NAME, OUTSIDE_ONLY].sort());
        expect(await fs.readFile(path.join(outside, SHARED_NAME), "utf8")).toBe(OUTSIDE);
        // Every write reported as done is inside, where it was asked to go.
        const lost: string[] = [];
        for (const call of landed) {
          if (!("content" in call)) continue;
          const back = await s.readFile(call.path).catch(() => undefined);
          if (back !== call.content) lost.push(call.path);
        }
        expect(lost).toEqual([]);
        // The race was real: the loop swapped, and calls met the link.
        expect(Number.parseInt(await s.readFile(`${root}/${SWAP_FILES.count}`), 10)).toBeGreaterThan(0);
        expect(refused).toBeGreaterThan(0);
      } finally {
        await fs.rm(outside, { recursive: true, force: true });
      }
    },
    180_000,
  );
}

function plan(root: string): Call[] {
  return Array.from({ length: SWAPPED_PARENT_ROUNDS }, (_, i): Call => {
    const content = `kit swapped-parent call ${i}\n`;
    switch (i % 7) {
      case 0:
        return { kind: "write", path: `${root}/d/w${i}.txt`, content };
      case 1:
        return { kind: "append", path: `${root}/d/a${i}.txt`, content };
      case 2:
        return { kind: "bytes", path: `${root}/d/b${i}.bin`, content };
      case 3:
        return { kind: "nested", path: `${root}/d/n${i}/x/y.txt`, content };
      case 4:
        return { kind: "read", path: `${root}/d/${SHARED_NAME}` };
      case 5:
        return { kind: "readBytes", path: `${root}/d/${SHARED_NAME}` };
      default:
        return { kind: "list", path: `${root}/d` };
    }
  });
}

/** Runs one call; returns what a read saw (`undefined` for writes). */
async function perform(kit: Kit, call: Call): Promise<string | undefined> {
  const s = kit.sandbox();
  switch (call.kind) {
    case "write":
    case "nested":
      await s.writeFile(call.path, call.content);
      return undefined;
    case "append":
      await s.writeFile(call.path, call.content, { append: true });
      return undefined;
    case "bytes":
      await s.writeBytes(call.path, new TextEncoder().encode(call.content));
      return undefined;
    case "read":
      return s.readFile(call.path);
    case "readBytes":
      return new TextDecoder().decode(await s.readBytes(call.path));
    case "list":
      return (await s.listDir(call.path, { maxDepth: 1 })).join("\n");
  }
}
