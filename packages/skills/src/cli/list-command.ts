import { skillContainerFilePath } from "../model/skill.js";
import { EXIT_OK, type CliIo } from "./io.js";
import { openCatalog, type CatalogCommandOptions } from "./open-catalog.js";

/** Options of `deerflow-skills list`. */
export interface ListCommandOptions extends CatalogCommandOptions {
  readonly json: boolean;
}

const clip = (text: string, width: number): string => (text.length <= width ? text : `${text.slice(0, width - 1)}…`);

/**
 * Lists the catalog: a table (or JSON with `skills`, `diagnostics` and the
 * `extensionsConfig` that was read), then any skipped skills with their
 * reasons on stderr.
 */
export async function listCommand(options: ListCommandOptions, io: CliIo): Promise<number> {
  const { catalog, extensionsConfig } = await openCatalog(options, io);
  const skills = await catalog.list();
  const diagnostics = await catalog.diagnostics();
  if (options.json) {
    const rows = skills.map((s) => ({
      name: s.name,
      category: s.category,
      enabled: s.enabled,
      description: s.description,
      location: skillContainerFilePath(s, catalog.containerBase),
    }));
    const config = { path: extensionsConfig.path ?? null, source: extensionsConfig.source };
    io.stdout(`${JSON.stringify({ skills: rows, diagnostics, extensionsConfig: config }, null, 2)}\n`);
    return EXIT_OK;
  }
  const nameWidth = Math.max(4, ...skills.map((s) => s.name.length));
  io.stdout(`${"NAME".padEnd(nameWidth)}  CATEGORY  ENABLED  DESCRIPTION\n`);
  for (const s of skills) {
    const enabled = s.enabled ? "yes" : "no";
    io.stdout(
      `${s.name.padEnd(nameWidth)}  ${s.category.padEnd(8)}  ${enabled.padEnd(7)}  ${clip(s.description.replace(/\s+/g, " "), 72)}\n`,
    );
  }
  io.stdout(`${skills.length} skill(s), ${skills.filter((s) => s.enabled).length} enabled\n`);
  for (const d of diagnostics.filter((x) => x.severity !== "info"))
    io.stderr(`${d.severity}: ${d.file}: ${d.message}\n`);
  return EXIT_OK;
}
