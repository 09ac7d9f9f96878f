import { writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { load as parseYaml } from "js-yaml";
import { validateToolsConfig } from "@deerflow/tools";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configTexts } from "../../test/support/config-text.js";
import { pdfWithPages } from "../../test/support/documents.js";
import { describeConfig, loadConfig } from "../config/index.js";
import { silentLogger } from "../logger.js";
import { createConfiguredToolDeps } from "./configured-tools.js";

// A SearXNG stand-in: `GET /search?format=json` with twelve hits.
let searx: Server;
let base = "";
beforeAll(async () => {
  searx = createServer((req, res) => {
    if (req.url === "/files/report.pdf") {
      res.writeHead(200, { "content-type": "application/pdf" });
      res.end(pdfWithPages(["Deer cross the river in May"]));
      return;
    }
    const q = new URL(req.url ?? "/", "http://x").searchParams.get("q") ?? "";
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        results: Array.from({ length: 12 }, (_, i) => ({
          title: `${q} ${i}`,
          url: `https://e.org/${i}`,
          content: "c",
        })),
      }),
    );
  });
  await new Promise<void>((r) => searx.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(searx.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => searx.close(() => r())));

const cfg = configTexts();
const yaml = (maxResults: number | string, extra = "") =>
  [
    "models:",
    "  - name: demo",
    "    use: demo",
    "tool_groups:",
    "  - name: web",
    "tools:",
    "  - name: web_search",
    "    group: web",
    "    use: searxng",
    `    base_url: ${base}`,
    `    max_results: ${maxResults}`,
    extra,
  ].join("\n");

describe("tools: in config.yaml", () => {
  it("bad entries are config errors naming the key path", async () => {
    expect(await cfg.problems(yaml(0))).toBe("config.yaml: tools[0].max_results: must be >= 1");
    expect(await cfg.problems(yaml(3, "    api_key: nope"))).toBe(
      "config.yaml: tools[0].api_key: unknown key for this provider",
    );
    expect(await cfg.problems(yaml(3).replace("use: searxng", "use: bingo"))).toMatch(
      /^config\.yaml: tools\[0\]\.use: unknown web_search provider 'bingo' \(built-in: searxng, tavily, brave, serper, exa, duckduckgo/,
    );
    expect(await cfg.problems(yaml(3).replace("group: web", "group: files"))).toBe(
      "config.yaml: tools[0].group: 'files' is not declared under tool_groups (declared: web)",
    );
  });

  it("options are re-read when config.yaml changes, without a restart; a broken file keeps the last good ones", async () => {
    const loaded = await cfg.load(yaml(2));
    const warnings: string[] = [];
    const deps = await createConfiguredToolDeps(loaded, {
      logger: { ...silentLogger, warn: (_o: Record<string, unknown>, msg: string) => void warnings.push(msg) },
      env: {},
      cwd: loaded.dir,
    });
    const [search] = deps.tools(["web"]);
    expect(deps.tools(["other"])).toEqual([]);
    const count = async () =>
      (JSON.parse(String(await search?.invoke({ query: "deer" }))) as { total_results: number }).total_results;
    expect(await count()).toBe(2);
    const file = path.join(loaded.dir, "config.yaml");
    await writeFile(file, yaml(7));
    expect(await count()).toBe(7);
    await writeFile(file, yaml("seven"));
    expect(await count()).toBe(7);
    expect(warnings).toContain("tools: config.yaml changed but does not load; the previous tool options stay");
    await writeFile(file, yaml(4));
    expect(await count()).toBe(4);
  });
});

describe("the start-up summary", () => {
  it("names each tool, its provider and group, never its options (API keys)", async () => {
    const loaded = await cfg.load(
      yaml(
        3,
        ["  - name: image_search", "    group: web", "    use: serper", "    api_key: sk-serper-secret-000"].join("\n"),
      ),
    );
    const lines = describeConfig(loaded);
    expect(lines).toContain("tools: web_search (searxng, group web), image_search (serper, group web)");
    expect(lines.join("\n")).not.toContain("sk-serper-secret-000");
  });
});

describe("web_fetch in the server", () => {
  it("reads a PDF with the uploads converter's pdf.js extraction", async () => {
    const loaded = await cfg.load(
      yaml(
        3,
        ["  - name: web_fetch", "    group: web", "    use: fetch", "    allow_private_addresses: true"].join("\n"),
      ),
    );
    const deps = await createConfiguredToolDeps(loaded, { logger: silentLogger, env: {}, cwd: loaded.dir });
    const fetchTool = deps.tools().find((t) => t.name === "web_fetch");
    expect(await fetchTool?.invoke({ url: `${base}/files/report.pdf` })).toBe(
      "# report.pdf\n\n## Page 1\n\nDeer cross the river in May",
    );
  });
});

describe("config.example.yaml's tools", () => {
  const appDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

  it("loads with a working web_search, web_fetch and image_search", async () => {
    const loaded = await loadConfig({ cwd: appDir, path: "config.example.yaml", env: { OPENAI_API_KEY: "sk-x" } });
    expect(loaded.config.tools?.tools.map((t) => [t.name, t.use])).toEqual([
      ["web_search", "duckduckgo"],
      ["web_fetch", "fetch"],
      ["image_search", "serper"],
    ]);
  });

  it("every commented provider alternative is a valid entry", async () => {
    const text = await readFile(path.join(appDir, "config.example.yaml"), "utf8");
    const section = text.slice(text.indexOf("\ntools:\n"));
    const alternatives = [...section.matchAll(/^  # (- \{ name: .*\})/gm)].map((m) =>
      parseYaml(m[1]!.replace(/\s+#.*$/, "")),
    );
    const entries = alternatives.flat() as Record<string, unknown>[];
    expect(entries.map((e) => e["use"])).toEqual(
      expect.arrayContaining(["searxng", "tavily", "brave", "serper", "exa", "jina", "firecrawl"]),
    );
    for (const entry of entries) {
      // "$VAR" references are substituted at load time; any string stands in for them here.
      const { problems } = validateToolsConfig({ tools: [entry] });
      expect(problems, JSON.stringify(entry)).toEqual([]);
    }
  });
});
