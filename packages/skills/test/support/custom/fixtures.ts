/**
 * Test fixtures for the custom-skill store and the `skill_manage` tool: temp
 * roots, SKILL.md text, scripted scanners and error capture.
 */
import { lstat, mkdtemp, readFile, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { SkillsError } from "../../../src/errors.js";
import type { Logger } from "../../../src/logger.js";
import type {
  Finding,
  ModerationInput,
  ModerationResult,
  ModerationScanner,
  ScanReport,
  SkillScanner,
} from "../../../src/scanning/types.js";

/** A temp directory holding `custom/` and `public/` roots. */
export interface TempRoots {
  readonly base: string;
  readonly customRoot: string;
  readonly publicRoot: string;
  cleanup(): Promise<void>;
}

/** @returns fresh temp roots (the custom and public roots are not created). */
export async function makeTempRoots(prefix = "custom-skills-"): Promise<TempRoots> {
  const base = await mkdtemp(path.join(os.tmpdir(), prefix));
  return {
    base,
    customRoot: path.join(base, "custom"),
    publicRoot: path.join(base, "public"),
    cleanup: () => rm(base, { recursive: true, force: true }),
  };
}

/** @returns valid SKILL.md text for `name`. */
export function skillMd(name: string, description = "Does a useful thing.", body = "# Usage\n\nStep one.\n"): string {
  return `---\nname: ${name}\ndescription: ${description}\n---\n${body}`;
}

/** @returns the SkillsError a promise rejects with (fails the test otherwise). */
export async function rejectionOf(promise: Promise<unknown>): Promise<SkillsError> {
  const err: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!SkillsError.isInstance(err)) throw new Error(`expected a SkillsError, got ${String(err)}`);
  return err;
}

/** A moderation scanner that answers from a function and records its inputs. */
export class ScriptedModeration implements ModerationScanner {
  readonly id = "scripted";
  readonly calls: ModerationInput[] = [];
  constructor(
    private readonly answer: (input: ModerationInput) => ModerationResult = () => ({
      decision: "allow",
      reason: "Looks fine.",
    }),
  ) {}
  moderate(input: ModerationInput): Promise<ModerationResult> {
    this.calls.push(input);
    return Promise.resolve(this.answer(input));
  }
}

/** A static scanner that reports a CRITICAL finding whenever `SKILL.md` or a file contains `marker`. */
export class MarkerScanner implements SkillScanner {
  readonly id = "marker";
  scanned = 0;
  constructor(private readonly marker: string) {}
  async scanDirectory(dir: string): Promise<ScanReport> {
    this.scanned++;
    const findings: Finding[] = [];
    for (const file of (await readdir(dir, { recursive: true })).sort()) {
      const stat = await lstat(path.join(dir, file));
      if (!stat.isFile()) continue;
      const text = await readFile(path.join(dir, file), "utf8");
      if (text.includes(this.marker)) {
        findings.push({
          ruleId: "test-marker",
          severity: "CRITICAL",
          file,
          line: 1,
          message: "Marker found.",
          remediation: "Remove it.",
          evidence: null,
        });
      } else if (text.includes("http://")) {
        findings.push({
          ruleId: "network-cleartext-http",
          severity: "MEDIUM",
          file,
          line: 1,
          message: "Cleartext HTTP.",
          remediation: "Use https.",
          evidence: null,
        });
      }
    }
    return { findings, blocked: findings.some((f) => f.severity === "CRITICAL"), scannerErrors: [] };
  }
}

/** A logger that keeps every call. */
export function recordingLogger(): Logger & {
  entries: Array<{ level: string; obj: Record<string, unknown>; msg: string }>;
} {
  const entries: Array<{ level: string; obj: Record<string, unknown>; msg: string }> = [];
  const at = (level: string) => (obj: Record<string, unknown>, msg: string) => void entries.push({ level, obj, msg });
  return { entries, debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}
