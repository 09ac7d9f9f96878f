import { renderSkillSection, type SkillPromptMode } from "../prompt/render.js";
import { EXIT_OK, type CliIo } from "./io.js";
import { openCatalog, type CatalogCommandOptions } from "./open-catalog.js";

/** Options of `deerflow-skills prompt`. */
export interface PromptCommandOptions extends CatalogCommandOptions {
  readonly mode: SkillPromptMode;
}

/** Prints the `<skill_system>` section the lead agent would get; the extensions config read and the size go to stderr. */
export async function promptCommand(options: PromptCommandOptions, io: CliIo): Promise<number> {
  const { catalog } = await openCatalog(options, io);
  const section = renderSkillSection(await catalog.list(), {
    containerBase: catalog.containerBase,
    mode: options.mode,
  });
  io.stdout(section.text.endsWith("\n") || section.text === "" ? section.text : `${section.text}\n`);
  io.stderr(`mode: ${section.mode}, about ${section.tokens} tokens\n`);
  return EXIT_OK;
}
