/**
 * The safety middlewares' options from `config.yaml`: `read_before_write:` and
 * `guardrails:` — the provider is the built-in `AllowlistProvider` or a `use:`
 * plugin loaded with the kernel's loader (constructed or called with
 * `guardrails.provider.config` as written).
 */
import {
  AllowlistProvider,
  GUARDRAIL_PROVIDER_SHAPE,
  isGuardrailProvider,
  type GuardrailProvider,
  type LeadMiddlewareOptions,
} from "@deerflow/agent";
import type { ServerConfig } from "../config/types.js";
import { loadPlugin } from "../plugins/index.js";

/**
 * Builds the options of the read-before-write, guardrail and human-approval middlewares.
 *
 * @param config - the resolved configuration
 * @param lookup - where `use:` plugins are looked up
 * @returns `readBeforeWrite` and `guardrails` for `createLeadAgent({ middleware })`
 * @throws PluginLoadError when the provider plugin cannot be loaded or is not a provider
 */
export async function safetyMiddlewareOptions(
  config: ServerConfig,
  lookup: { cwd: string; configDir: string },
): Promise<Pick<LeadMiddlewareOptions, "readBeforeWrite" | "guardrails">> {
  const g = config.guardrails;
  let provider: GuardrailProvider | undefined;
  if (g?.enabled === true && g.provider !== undefined) {
    const p = g.provider;
    provider =
      p.kind === "allowlist"
        ? new AllowlistProvider({
            ...(p.allowedTools === undefined ? {} : { allowedTools: p.allowedTools }),
            ...(p.deniedTools === undefined ? {} : { deniedTools: p.deniedTools }),
          })
        : await loadPlugin(p.use, {
            ...lookup,
            options: p.options,
            purpose: "guardrail provider",
            shape: GUARDRAIL_PROVIDER_SHAPE,
            check: isGuardrailProvider,
          });
  }
  return {
    readBeforeWrite: { enabled: config.readBeforeWrite?.enabled ?? true },
    guardrails: {
      failClosed: g?.failClosed ?? true,
      requireApproval: g?.requireApproval ?? [],
      ...(provider === undefined ? {} : { provider }),
      ...(g?.passport === undefined ? {} : { passport: g.passport }),
    },
  };
}
