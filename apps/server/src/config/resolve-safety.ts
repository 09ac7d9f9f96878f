/**
 * Resolves the safety sections of `config.yaml`: `read_before_write:` and
 * `guardrails:` (DeerFlow's keys: `enabled`, `fail_closed`, `passport`,
 * `provider.use` / `provider.config`; ours: `require_approval`).
 */
import { isUseSpec } from "../plugins/index.js";
import type { GuardrailProviderSettings, GuardrailsSettings } from "./types.js";

type Doc = Record<string, unknown>;

/** `use:` values that name the built-in allowlist provider (ours, and DeerFlow's class path). */
const ALLOWLIST_USES = new Set(["allowlist", "deerflow.guardrails.builtin:AllowlistProvider"]);

const stringList = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === "string");

/**
 * Resolves `read_before_write:` and `guardrails:`.
 *
 * @param doc - the validated document
 * @param problem - records a problem at a key path
 * @returns the typed sections with defaults (`read_before_write.enabled` true, guardrails off, `fail_closed` true)
 */
export function resolveSafety(
  doc: Doc,
  problem: (path: string, message: string) => void,
): { readBeforeWrite: { enabled: boolean }; guardrails: GuardrailsSettings } {
  const rbw = (doc["read_before_write"] as Doc | undefined) ?? {};
  const g = (doc["guardrails"] as Doc | undefined) ?? {};
  const enabled = (g["enabled"] as boolean | undefined) ?? false;
  const raw = g["provider"] as { use: string; config?: Doc } | undefined;
  let provider: GuardrailProviderSettings | undefined;
  if (enabled && raw === undefined)
    problem(
      "guardrails.provider",
      "is required when guardrails.enabled is true (e.g. use: allowlist with config.denied_tools: [bash])",
    );
  if (enabled && raw !== undefined) provider = resolveProvider(raw, problem);
  return {
    readBeforeWrite: { enabled: (rbw["enabled"] as boolean | undefined) ?? true },
    guardrails: {
      enabled,
      failClosed: (g["fail_closed"] as boolean | undefined) ?? true,
      requireApproval: (g["require_approval"] as string[] | undefined) ?? [],
      ...(g["passport"] === undefined ? {} : { passport: g["passport"] as string }),
      ...(provider === undefined ? {} : { provider }),
    },
  };
}

function resolveProvider(
  raw: { use: string; config?: Doc },
  problem: (path: string, message: string) => void,
): GuardrailProviderSettings | undefined {
  const config = raw.config ?? {};
  if (!ALLOWLIST_USES.has(raw.use)) {
    if (isUseSpec(raw.use)) return { kind: "plugin", use: raw.use, options: config };
    problem("guardrails.provider.use", `must be "allowlist" or "<module>:<export>", got "${raw.use}"`);
    return undefined;
  }
  let ok = true;
  for (const key of Object.keys(config)) {
    if (key !== "allowed_tools" && key !== "denied_tools") {
      problem(
        `guardrails.provider.config.${key}`,
        "is not a setting of the allowlist provider (allowed_tools, denied_tools)",
      );
      ok = false;
    } else if (!stringList(config[key])) {
      problem(`guardrails.provider.config.${key}`, "must be a list of tool names");
      ok = false;
    }
  }
  if (!ok) return undefined;
  return {
    kind: "allowlist",
    ...(config["allowed_tools"] === undefined ? {} : { allowedTools: config["allowed_tools"] as string[] }),
    ...(config["denied_tools"] === undefined ? {} : { deniedTools: config["denied_tools"] as string[] }),
  };
}
