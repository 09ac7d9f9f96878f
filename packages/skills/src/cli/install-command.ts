import path from "node:path";
import { installSkillArchive } from "../install/install.js";
import { EXIT_OK, type CliIo } from "./io.js";

/** Installs a `.skill` archive into `<root>/custom`, with the static security scan. */
export async function installCommand(
  options: { readonly file: string; readonly root: string },
  io: CliIo,
): Promise<number> {
  const result = await installSkillArchive(options.file, { customRoot: path.join(options.root, "custom") });
  io.stdout(`${result.message}\n`);
  for (const f of result.scan?.findings ?? []) {
    io.stderr(
      `warning: ${f.ruleId} (${f.severity}) at ${f.file ?? "<archive>"}${f.line === null ? "" : `:${f.line}`}: ${f.message}\n`,
    );
  }
  return EXIT_OK;
}
