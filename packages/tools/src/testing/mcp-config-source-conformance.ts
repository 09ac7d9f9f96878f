/**
 * `mcpConfigSourceConformance`: what an `McpConfigSource` (where an
 * `McpToolset` reads its servers) must satisfy — `load()` answers server specs
 * the toolset can use, `signature()` is stable while nothing changes, and after
 * a change the signature differs and `load()` answers the new servers (no
 * stale cache: the toolset relies on it to reload without a restart).
 */
import type { ConformanceRunner } from "@deerflow/kernel";
import type { McpConfigSource } from "../mcp/config-source.js";

/** Options of {@link mcpConfigSourceConformance}. */
export interface McpConfigSourceConformanceOptions extends ConformanceRunner {
  readonly name: string;
  /** A fresh source for each test, holding at least one server. */
  readonly makeSource: () => McpConfigSource | Promise<McpConfigSource>;
  /**
   * Changes what the last made source holds so that a server named `added` appears.
   * Without it the change test is skipped.
   */
  readonly change?: () => Promise<void>;
}

const TYPES = new Set([undefined, "stdio", "sse", "http"]);

/**
 * Registers the suite.
 *
 * @param options - the source factory, the change step and the injected test functions
 * @example
 * ```ts
 * mcpConfigSourceConformance({
 *   name: "consul", makeSource: () => consulMcpSource(client, "mcp/servers"),
 *   change: () => client.put("mcp/servers/added", { command: "npx" }), describe, it, expect,
 * });
 * ```
 */
export function mcpConfigSourceConformance(options: McpConfigSourceConformanceOptions): void {
  const { describe, it, expect } = options;
  describe(`mcpConfigSourceConformance: ${options.name}`, () => {
    it("loads server specs the toolset can use", async () => {
      const servers = await (await options.makeSource()).load();
      const names = Object.keys(servers);
      expect(names.length).toBeGreaterThan(0);
      for (const [name, spec] of Object.entries(servers)) {
        expect(/^[A-Za-z0-9_-]+$/.test(name), `server name '${name}'`).toBe(true);
        expect(TYPES.has(spec.type), `type of '${name}'`).toBe(true);
        const launch = spec.type === "sse" || spec.type === "http" ? spec.url : spec.command;
        expect(typeof launch === "string" && launch !== "", `'${name}' needs a command or url`).toBe(true);
      }
    });

    it("keeps its signature while nothing changes", async () => {
      const source = await options.makeSource();
      expect(await source.signature()).toBe(await source.signature());
    });

    const changeTest = options.change === undefined ? it.skip : it;
    changeTest(
      options.change === undefined
        ? "changes its signature and servers after a change (skipped: no change step given)"
        : "changes its signature and servers after a change",
      async () => {
        const source = await options.makeSource();
        const before = await source.signature();
        await source.load();
        await options.change?.();
        expect(await source.signature()).not.toBe(before);
        expect(Object.keys(await source.load())).toContain("added");
      },
    );
  });
}
