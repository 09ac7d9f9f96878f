import { describe, expect, it } from "vitest";
import { loadFrontmatterYaml } from "./yaml.js";

describe("loadFrontmatterYaml", () => {
  it("loads a mapping with the safe core schema", () => {
    expect(loadFrontmatterYaml("name: a\nlist: [x, y]\nyes_value: yes")).toEqual({
      ok: true,
      value: { name: "a", list: ["x", "y"], yes_value: "yes" },
    });
  });

  it("rejects custom tags", () => {
    const r = loadFrontmatterYaml("x: !!js/function 'function(){}'");
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.code).toBe("yaml-invalid");
  });

  it("rejects the billion-laughs alias bomb by alias count", () => {
    const levels = ["a: &a [x,x,x,x,x,x,x,x,x,x]"];
    for (let i = 1; i < 10; i++) {
      const prev = String.fromCharCode(97 + i - 1);
      const cur = String.fromCharCode(97 + i);
      levels.push(`${cur}: &${cur} [${Array(10).fill(`*${prev}`).join(",")}]`);
    }
    const r = loadFrontmatterYaml(levels.join("\n"));
    expect(r).toMatchObject({ ok: false, code: "yaml-alias-bomb" });
  });

  it("rejects a bomb that stays under the alias cap but expands past the node cap", () => {
    // 4 levels of 20 aliases each: 80 aliases, 20^4 = 160,000 expanded nodes.
    const levels = [`l0: &l0 [${Array(20).fill("x").join(",")}]`];
    for (let i = 1; i < 4; i++)
      levels.push(
        `l${i}: &l${i} [${Array(20)
          .fill(`*l${i - 1}`)
          .join(",")}]`,
      );
    const r = loadFrontmatterYaml(levels.join("\n"));
    expect(r).toMatchObject({ ok: false, code: "yaml-alias-bomb" });
    if (!r.ok) expect(r.reason).toContain("expands to more than");
  });

  it("allows a few harmless aliases", () => {
    expect(loadFrontmatterYaml("a: &a x\nb: *a")).toEqual({ ok: true, value: { a: "x", b: "x" } });
  });

  it("reports the 0-based line of a syntax error", () => {
    const r = loadFrontmatterYaml("name: x\ndescription: foo: bar");
    expect(r).toMatchObject({ ok: false, code: "yaml-invalid", line: 1 });
  });

  it("rejects duplicate keys", () => {
    expect(loadFrontmatterYaml("name: a\nname: b").ok).toBe(false);
  });
});
