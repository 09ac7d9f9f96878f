/**
 * `pluginToolConformance`: what a tool given to the agent through
 * `tools: [{use: "<module>:<export>"}]` must satisfy — a name the model APIs
 * accept, a description, a JSON-object input schema, a non-empty text answer,
 * an answer (not a hang) when its backend never answers, and a prompt stop
 * when the run is cancelled. The built-in web tools pass it.
 */
import type { ConformanceRunner } from "@deerflow/kernel";
import { toJsonSchema } from "@langchain/core/utils/json_schema";

/** What the kit calls on a tool: a LangChain tool (`tool()`, `StructuredTool`, `DynamicTool`) fits as it is. */
export interface ConformingTool {
  readonly name: string;
  readonly description: string;
  readonly schema: unknown;
  invoke(input: Record<string, unknown>, config?: { signal?: AbortSignal }): Promise<unknown>;
}

/** Options of {@link pluginToolConformance}. */
export interface PluginToolConformanceOptions extends ConformanceRunner {
  /** Suite name. */
  readonly name: string;
  /** A fresh tool for each test. */
  readonly makeTool: () => ConformingTool | Promise<ConformingTool>;
  /** An input the tool answers successfully. */
  readonly validInput: Record<string, unknown>;
  /** Checks the text answer to `validInput` beyond "non-empty" (e.g. parse a JSON shape). */
  readonly checkResult?: (text: string) => void;
  /**
   * An input whose backend never answers (a test server that holds the
   * request). The tool must answer with an error text within `timeoutMs`.
   * Without it the timeout test is skipped.
   */
  readonly slowInput?: Record<string, unknown>;
  /** The tool's own timeout for `slowInput`, in ms (default 30 000). */
  readonly timeoutMs?: number;
}

const NAME = /^[a-zA-Z0-9_-]{1,64}$/;

function textOf(output: unknown): string {
  if (typeof output === "string") return output;
  const content = (output as { content?: unknown } | null)?.content ?? output;
  if (typeof content === "string") return content;
  if (Array.isArray(content))
    return content.map((b) => (typeof b === "string" ? b : String((b as { text?: unknown }).text ?? ""))).join("");
  return "";
}

/** Settles with the promise, or rejects after `ms` (the bound a test allows). */
async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, bound]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Registers the plugin-tool conformance suite.
 *
 * @param options - the tool factory, inputs and the injected test functions
 * @example
 * ```ts
 * import { describe, expect, it } from "vitest";
 * import { pluginToolConformance } from "@deerflow/tools/testing";
 *
 * pluginToolConformance({
 *   name: "wiki_lookup", makeTool: () => new WikiLookupTool({ base_url: server.url }),
 *   validInput: { title: "Deer" }, slowInput: { title: "hang" }, timeoutMs: 1000,
 *   describe, it, expect,
 * });
 * ```
 */
export function pluginToolConformance(options: PluginToolConformanceOptions): void {
  const { describe, it, expect } = options;
  const timeoutMs = options.timeoutMs ?? 30_000;
  // Generous bounds: the suite must hold on a loaded machine; a hang is still a failure.
  const settleBound = timeoutMs * 3 + 15_000;

  describe(`pluginToolConformance: ${options.name}`, () => {
    it("has a name model APIs accept and a description", async () => {
      const tool = await options.makeTool();
      expect(NAME.test(tool.name), `tool name '${tool.name}' must match ${String(NAME)}`).toBe(true);
      expect(typeof tool.description).toBe("string");
      expect(tool.description.trim().length).toBeGreaterThan(9);
    });

    it("has a JSON-object input schema that the valid input fits", async () => {
      const tool = await options.makeTool();
      const schema = toJsonSchema(tool.schema as Parameters<typeof toJsonSchema>[0]) as {
        type?: unknown;
        properties?: Record<string, unknown>;
        required?: string[];
      };
      expect(schema.type).toBe("object");
      expect(typeof schema.properties).toBe("object");
      for (const key of Object.keys(options.validInput))
        expect(Object.keys(schema.properties ?? {}), `validInput key '${key}' is not in the schema`).toContain(key);
      for (const key of schema.required ?? [])
        expect(Object.keys(options.validInput), `required key '${key}' missing from validInput`).toContain(key);
    });

    it(
      "answers the valid input with non-empty text",
      async () => {
        const tool = await options.makeTool();
        const text = textOf(await within(tool.invoke(options.validInput), settleBound, "the call"));
        expect(text.trim().length).toBeGreaterThan(0);
        options.checkResult?.(text);
      },
      settleBound + 5_000,
    );

    // A tool without a backend (pure computation) has nothing to time out: the case is shown as skipped, with why.
    const timeoutTest = options.slowInput === undefined ? it.skip : it;
    timeoutTest(
      options.slowInput === undefined
        ? "answers with an error text when its backend never answers (skipped: no slowInput given)"
        : "answers with an error text, not a hang, when its backend never answers",
      async () => {
        const tool = await options.makeTool();
        const text = textOf(await within(tool.invoke(options.slowInput ?? {}), settleBound, "the call"));
        expect(text).toMatch(/error|timed out|did not answer|within/i);
      },
      settleBound + 5_000,
    );

    it("stops when the run is cancelled (the call rejects)", async () => {
      const tool = await options.makeTool();
      const ac = new AbortController();
      const call = tool.invoke(options.slowInput ?? options.validInput, { signal: ac.signal });
      ac.abort(new Error("run cancelled"));
      await expect(within(call, 15_000, "the cancelled call")).rejects.toThrow();
    }, 20_000);
  });
}
