import path from "node:path";
import { packSkillDirectory } from "../install/pack.js";
import { EXIT_OK, type CliIo } from "./io.js";

/** Packs a skill folder into `<name>.skill` (or `out`). */
export async function packCommand(
  options: { readonly dir: string; readonly out?: string },
  io: CliIo,
): Promise<number> {
  const result = await packSkillDirectory(options.dir, options.out);
  io.stdout(
    `Packed '${result.name}' (${result.files} file(s)) into ${path.relative(process.cwd(), result.file) || result.file}\n`,
  );
  return EXIT_OK;
}
