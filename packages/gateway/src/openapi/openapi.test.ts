import { afterEach, describe, expect, it } from "vitest";
import { ADMIN_KEY, createFixture, type Fixture } from "../../test/support/fixture.js";

type Operation = {
  requestBody?: { content: Record<string, { schema: { required?: string[]; properties?: Record<string, unknown> } }> };
  parameters?: Array<{ in: string; name: string; required?: boolean }>;
  responses: Record<string, { description: string; content?: Record<string, { schema: unknown }> }>;
  security?: unknown[];
  summary?: string;
};
type Doc = {
  openapi: string;
  info: { title: string };
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes?: Record<string, unknown> };
};

const ROUTES: ReadonlyArray<[string, string]> = [
  ["get", "/health"],
  ["get", "/ok"],
  ["get", "/api/skills"],
  ["post", "/api/skills/install"],
  ["post", "/api/skills/reload"],
  ["post", "/api/skills/upload"],
  ["get", "/api/skills/custom"],
  ["get", "/api/skills/custom/{skill_name}"],
  ["put", "/api/skills/custom/{skill_name}"],
  ["delete", "/api/skills/custom/{skill_name}"],
  ["get", "/api/skills/custom/{skill_name}/history"],
  ["post", "/api/skills/custom/{skill_name}/rollback"],
  ["get", "/api/skills/{skill_name}"],
  ["get", "/api/skills/{skill_name}/files"],
  ["get", "/api/skills/{skill_name}/files/{path}"],
  ["put", "/api/skills/{skill_name}"],
  ["post", "/api/threads/{thread_id}/uploads"],
  ["get", "/api/threads/{thread_id}/uploads/limits"],
  ["get", "/api/threads/{thread_id}/uploads/list"],
  ["delete", "/api/threads/{thread_id}/uploads/{filename}"],
  ["get", "/api/threads/{thread_id}/artifacts/{path}"],
  ["head", "/api/threads/{thread_id}/artifacts/{path}"],
  ["get", "/api/threads/{thread_id}/files"],
];

const JSON_BODIES: ReadonlyArray<[string, string, string[]]> = [
  ["post", "/api/skills/install", ["thread_id", "path"]],
  ["put", "/api/skills/custom/{skill_name}", ["content"]],
  ["post", "/api/skills/custom/{skill_name}/rollback", []],
  ["put", "/api/skills/{skill_name}", ["enabled"]],
];

function collectRefs(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => collectRefs(v, out));
  else if (typeof value === "object" && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      if (k === "$ref" && typeof v === "string") out.push(v);
      else collectRefs(v, out);
    }
  }
  return out;
}

describe("GET /openapi.json", () => {
  let fx: Fixture;
  let doc: Doc;
  let raw: string;

  afterEach(async () => {
    await fx.close();
  });

  async function load(auth: boolean): Promise<void> {
    fx = await createFixture({ auth, gateway: { openapi: { title: "Test Gateway", version: "1.2.3" } } });
    const res = await fx.app.inject({ url: "/openapi.json", headers: { "x-api-key": ADMIN_KEY } });
    expect(res.statusCode).toBe(200);
    raw = res.body;
    doc = JSON.parse(raw) as Doc;
  }

  it("is an OpenAPI 3 document with the configured info", async () => {
    await load(false);
    expect(doc.openapi).toMatch(/^3\.0\.\d$/);
    expect(doc.info).toMatchObject({ title: "Test Gateway", version: "1.2.3" });
  });

  it("lists every route and nothing internal", async () => {
    await load(false);
    const listed = Object.entries(doc.paths)
      .flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m} ${p}`))
      .sort();
    expect(listed).toEqual(ROUTES.map(([m, p]) => `${m} ${p}`).sort());
    expect(raw).not.toContain("x-errors");
    expect(raw).not.toContain("x-multipart");
  });

  it.each(JSON_BODIES)("documents the JSON body of %s %s", async (method, p, required) => {
    await load(false);
    const schema = doc.paths[p]?.[method]?.requestBody?.content["application/json"]?.schema;
    expect(schema).toBeDefined();
    expect(schema?.required ?? []).toEqual(required);
  });

  it.each([
    ["/api/skills/upload", "file"],
    ["/api/threads/{thread_id}/uploads", "files"],
  ])("documents the multipart body of %s", async (p, field) => {
    await load(false);
    const schema = doc.paths[p]?.["post"]?.requestBody?.content["multipart/form-data"]?.schema;
    expect(schema?.properties?.[field]).toBeDefined();
  });

  it("documents path and query parameters", async () => {
    await load(false);
    const artifact = doc.paths["/api/threads/{thread_id}/artifacts/{path}"]?.["get"];
    expect(artifact?.parameters?.map((x) => `${x.in}:${x.name}`).sort()).toEqual([
      "path:path",
      "path:thread_id",
      "query:download",
    ]);
    expect(doc.paths["/api/skills/{skill_name}"]?.["get"]?.parameters?.map((x) => x.name)).toEqual(["skill_name"]);
  });

  it("documents success schemas and error responses of every API route", async () => {
    await load(true);
    for (const [method, p] of ROUTES) {
      const op = doc.paths[p]?.[method];
      expect(op?.summary, `${method} ${p}`).toBeTruthy();
      expect(op?.responses["200"], `${method} ${p}`).toBeDefined();
      if (p.startsWith("/api/")) expect(op?.responses["401"], `${method} ${p}`).toBeDefined();
    }
    expect(doc.paths["/api/skills/install"]?.["post"]?.responses["422"]).toBeDefined();
    expect(doc.paths["/api/skills/install"]?.["post"]?.responses["409"]).toBeDefined();
    expect(doc.paths["/api/skills"]?.["get"]?.responses["200"]?.content?.["application/json"]?.schema).toMatchObject({
      type: "object",
      required: ["skills"],
    });
  });

  it("declares the API key schemes and leaves the probes open", async () => {
    await load(true);
    expect(Object.keys(doc.components.securitySchemes ?? {}).sort()).toEqual(["apiKeyHeader", "bearerAuth"]);
    expect(doc.paths["/health"]?.["get"]?.security).toEqual([]);
    expect(doc.paths["/ok"]?.["get"]?.security).toEqual([]);
  });

  it("has no dangling $ref", async () => {
    await load(true);
    for (const ref of collectRefs(doc)) {
      const target = ref
        .replace(/^#\//, "")
        .split("/")
        .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], doc);
      expect(target, ref).toBeDefined();
    }
  });

  it("needs a key when authentication is on", async () => {
    await load(true);
    expect((await fx.app.inject({ url: "/openapi.json" })).statusCode).toBe(401);
  });
});
