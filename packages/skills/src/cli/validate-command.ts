import path from "node:path";
import { findSkillFiles } from "../catalog/find-skill-files.js";
import { StaticSkillScanner } from "../scanning/static/scanner.js";
import { validateSkillDirectory } from "../parsing/validate.js";
import { EXIT_OK, EXIT_PROBLEMS, type CliIo } from "./io.js";

/** Options of `deerflow-skills validate`. */
export interface ValidateCommandOptions {
  readonly dirs: readonly string[];
  /** Validate every skill under `<root>/public` and `<root>/custom` too. */
  readonly all: boolean;
  readonly root: string;
  /** Also run the static security scan; CRITICAL findings are problems. */
  readonly scan: boolean;
}

/**
 * Strictly validates skill folders: one line per problem
 * (`<dir>: <code>: <message>`), then a summary; exit 1 when any has an error.
 */
export async function validateCommand(options: ValidateCommandOptions, io: CliIo): Promise<number> {
  const dirs = [...options.dirs];
  if (options.all) {
    for (const category of ["public", "custom"]) {
      const walk = await findSkillFiles(path.join(options.root, category));
      dirs.push(...walk.files.map((f) => path.dirname(f)));
    }
  }
  const scanner = options.scan ? new StaticSkillScanner() : undefined;
  let bad = 0;
  for (const dir of dirs) {
    const shown = path.relative(process.cwd(), dir) || ".";
    const result = await validateSkillDirectory(dir);
    const problems = result.errors.map((e) => `${shown}: ${e.code}: ${e.message}`);
    for (const w of result.warnings) io.stderr(`${shown}: warning: ${w.code}: ${w.message}\n`);
    if (scanner && result.ok) {
      const report = await scanner.scanDirectory(dir);
      for (const f of report.findings.filter((x) => x.severity === "CRITICAL")) {
        problems.push(
          `${shown}: ${f.ruleId}: ${f.message} (${f.file ?? "<package>"}${f.line === null ? "" : `:${f.line}`})`,
        );
      }
    }
    if (problems.length > 0) bad += 1;
    for (const line of problems) io.stdout(`${line}\n`);
  }
  io.stdout(`${dirs.length - bad} of ${dirs.length} skill(s) valid\n`);
  return bad > 0 ? EXIT_PROBLEMS : EXIT_OK;
}
