import { SkillCatalog } from "../catalog/catalog.js";
import { renderSkillSection, type SkillPromptMode } from "../prompt/render.js";
import { EXIT_OK, type CliIo } from "./io.js";

/** Options of `deerflow-skills prompt`. */
export interface PromptCommandOptions {
  readonly root: string;
  readonly extensionsConfig?: string;
  readonly mode: SkillPromptMode;
}

/** Prints the `<skill_system>` section the lead agent would get; its size goes to stderr. */
export async function promptCommand(options: PromptCommandOptions, io: CliIo): Promise<number> {
  const catalog = new SkillCatalog({
    root: options.root,
    ...(options.extensionsConfig !== undefined ? { extensionsConfigPath: options.extensionsConfig } : {}),
  });
  const section = renderSkillSection(await catalog.list(), { containerBase: catalog.containerBase, mode: options.mode });
  io.stdout(section.text.endsWith("\n") || section.text === "" ? section.text : `${section.text}\n`);
  io.stderr(`mode: ${section.mode}, about ${section.tokens} tokens\n`);
  return EXIT_OK;
}
