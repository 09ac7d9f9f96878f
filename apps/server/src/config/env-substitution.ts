/**
 * `$VAR` / `${VAR}` substitution in the string values of a parsed config
 * document. `$$` is a literal `$`; a `$` not followed by a name or `{` is
 * kept as is (`"costs $5"`). A reference to an unset variable is an error
 * naming the key path and the variable, so a missing secret fails at startup
 * instead of reaching a provider as an empty string.
 */
import { configError, type ConfigProblem } from "./errors.js";
import { formatKeyPath, type KeySegment } from "./key-path.js";

/** Result of {@link substituteEnv}. */
export interface SubstitutionResult {
  /** A copy of the document with references replaced (keys untouched). */
  readonly value: unknown;
  /**
   * Paths of string values that were exactly one reference (`port: ${PORT}`);
   * only those may later be converted to the number or boolean the schema expects.
   */
  readonly wholeReferences: readonly (readonly KeySegment[])[];
}

const REFERENCE = /\$(?:(\$)|\{([^}]*)\}|([A-Za-z_][A-Za-z0-9_]*))/g;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const WHOLE = /^\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))$/;

/**
 * Replaces environment references in every string value of `document`.
 *
 * @param document - the parsed YAML/JSON
 * @param env - the environment to read
 * @param label - file label for messages (`config.yaml`)
 * @returns the substituted copy and the paths of whole-value references
 * @throws ServerConfigError `CONFIG_ENV` listing every unset variable (with its key path) and every malformed `${...}`
 */
export function substituteEnv(document: unknown, env: NodeJS.ProcessEnv, label: string): SubstitutionResult {
  const problems: ConfigProblem[] = [];
  const wholeReferences: KeySegment[][] = [];

  const replaceString = (text: string, path: KeySegment[]): string => {
    if (!text.includes("$")) return text;
    if (WHOLE.test(text)) wholeReferences.push(path);
    return text.replace(
      REFERENCE,
      (match, dollar: string | undefined, braced: string | undefined, bare: string | undefined) => {
        if (dollar !== undefined) return "$";
        const name = braced ?? bare ?? "";
        if (braced !== undefined && !NAME.test(braced)) {
          problems.push({
            path: formatKeyPath(path),
            message: `invalid variable reference "${match}" (use $NAME or \${NAME}; write $$ for a literal $)`,
          });
          return match;
        }
        const value = env[name];
        if (value === undefined) {
          problems.push({
            path: formatKeyPath(path),
            message: `environment variable ${name} is not set (referenced as "${match}")`,
          });
          return match;
        }
        return value;
      },
    );
  };

  const walk = (node: unknown, path: KeySegment[]): unknown => {
    if (typeof node === "string") return replaceString(node, path);
    if (Array.isArray(node)) return node.map((item, i) => walk(item, [...path, i]));
    if (typeof node === "object" && node !== null) {
      const out: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(node)) {
        Object.defineProperty(out, key, {
          value: walk(value, [...path, key]),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return out;
    }
    return node;
  };

  const value = walk(document, []);
  if (problems.length > 0) throw configError("CONFIG_ENV", label, problems);
  return { value, wholeReferences };
}
