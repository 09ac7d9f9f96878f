import { parseArgs } from "node:util";
import { SkillsError } from "../errors.js";
import type { SkillPromptMode } from "../prompt/render.js";
import { installCommand } from "./install-command.js";
import { EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, processIo, type CliIo } from "./io.js";
import { listCommand } from "./list-command.js";
import { packCommand } from "./pack-command.js";
import { promptCommand } from "./prompt-command.js";
import { validateCommand } from "./validate-command.js";
import { readPackageVersion } from "./version.js";

/** Usage text of `deerflow-skills`. */
const USAGE = `Usage: deerflow-skills <command> [options]

Commands:
  validate <dir...>            strictly validate skill folders (one line per problem; exit 1 on any)
      --all                    also validate every skill under --root
      --scan                   also run the static security scan (CRITICAL findings are problems)
  list                         list the skills under --root with category and enabled state
      --json                   machine-readable output
  prompt                       print the <skill_system> prompt section
      --mode full|deferred|auto
  pack <dir> [-o out.skill]    pack a skill folder into a .skill archive
  install <file.skill>         install an archive into <root>/custom (security-scanned)

Common options:
  --root <dir>                 skills root holding public/ and custom/ (default: ./skills)
  --extensions-config <file>   extensions_config.json with the enabled state (list, prompt); default:
                               $DEER_FLOW_EXTENSIONS_CONFIG_PATH, else extensions_config.json, then
                               mcp_config.json, in the current folder, then in the folder holding --root
  --version                    print the package version
  -h, --help                   show this help
`;

const MODES: readonly SkillPromptMode[] = ["full", "deferred", "auto"];

/**
 * Runs the CLI with `argv` (without the node and script names) and returns the
 * exit code. Expected failures (bad input, a refused install) print one line
 * and return 1; wrong usage returns 2.
 */
export async function runCli(argv: readonly string[], io: CliIo = processIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        root: { type: "string", default: "skills" },
        "extensions-config": { type: "string" },
        all: { type: "boolean", default: false },
        scan: { type: "boolean", default: false },
        json: { type: "boolean", default: false },
        mode: { type: "string", default: "auto" },
        out: { type: "string", short: "o" },
        help: { type: "boolean", short: "h", default: false },
        version: { type: "boolean", default: false },
      },
    });
  } catch (err) {
    io.stderr(`${(err as Error).message}\n\n${USAGE}`);
    return EXIT_USAGE;
  }
  const { values, positionals } = parsed;
  const [command, ...args] = positionals;
  if (values.version) {
    io.stdout(`${await readPackageVersion()}\n`);
    return EXIT_OK;
  }
  if (values.help || command === undefined) {
    (values.help ? io.stdout : io.stderr)(USAGE);
    return values.help ? 0 : EXIT_USAGE;
  }
  const extensionsConfig = values["extensions-config"];
  const common = { root: values.root, ...(extensionsConfig !== undefined ? { extensionsConfig } : {}) };
  const usage = (message: string): number => {
    io.stderr(`${message}\n\n${USAGE}`);
    return EXIT_USAGE;
  };
  // An empty value is usually an unset shell variable; searching instead would read a file nobody named.
  if (extensionsConfig === "") return usage("--extensions-config needs a file path");
  try {
    switch (command) {
      case "validate":
        if (args.length === 0 && !values.all) return usage("validate needs at least one folder, or --all");
        return await validateCommand({ dirs: args, all: values.all, root: values.root, scan: values.scan }, io);
      case "list":
        return await listCommand({ ...common, json: values.json }, io);
      case "prompt": {
        const mode = values.mode as SkillPromptMode;
        if (!MODES.includes(mode)) return usage(`--mode must be one of ${MODES.join(", ")}`);
        return await promptCommand({ ...common, mode }, io);
      }
      case "pack":
        if (args.length !== 1) return usage("pack needs exactly one folder");
        return await packCommand({ dir: args[0]!, ...(values.out !== undefined ? { out: values.out } : {}) }, io);
      case "install":
        if (args.length !== 1) return usage("install needs exactly one .skill file");
        return await installCommand({ file: args[0]!, root: values.root }, io);
      default:
        return usage(`Unknown command '${command}'`);
    }
  } catch (err) {
    if (SkillsError.isInstance(err)) {
      io.stderr(`error: ${err.code}: ${err.message}\n`);
      return EXIT_PROBLEMS;
    }
    throw err;
  }
}
