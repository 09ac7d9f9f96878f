import { describe, expect, it } from "vitest";
import { doc, fact } from "../../test/support/documents.js";
import { emptySummaries } from "../document.js";
import { formatMemory } from "./format-memory.js";

const budget = { maxInjectionTokens: 2000, guaranteedCategories: ["correction" as const], guaranteedTokenBudget: 500 };

describe("formatMemory", () => {
  it("renders DeerFlow's sections and facts by confidence, HTML-escaped, with (avoid: …) for corrections", () => {
    const summaries = emptySummaries();
    const text = formatMemory(
      doc(
        [
          fact({ content: "Uses <b>bold</b> & more", confidence: 0.6, category: "preference" }),
          fact({ content: "Prefers pnpm", confidence: 0.95, category: "correction", sourceError: "said npm" }),
        ],
        {
          user: { ...summaries.user, workContext: { summary: "Compiler engineer.", updatedAt: "" } },
          history: { ...summaries.history, recentMonths: { summary: "Shipped v1.", updatedAt: "" } },
        },
      ),
      budget,
    );
    expect(text).toBe(
      [
        "User Context:",
        "- Work: Compiler engineer.",
        "History:",
        "- Recent: Shipped v1.",
        "Facts:",
        "- [correction | 0.95] Prefers pnpm (avoid: said npm)",
        "- [preference | 0.60] Uses &lt;b&gt;bold&lt;/b&gt; &amp; more",
      ].join("\n"),
    );
  });

  it("is empty for an empty memory", () => {
    expect(formatMemory(doc(), budget)).toBe("");
  });

  it("stays within max_injection_tokens, highest confidence first", () => {
    const facts = Array.from({ length: 200 }, (_, i) =>
      fact({ content: `fact number ${i} with some words`, confidence: (i % 100) / 100 }),
    );
    const text = formatMemory(doc(facts), { ...budget, maxInjectionTokens: 100 });
    expect(Math.ceil(text.length / 4)).toBeLessThanOrEqual(100);
    const confidences = [...text.matchAll(/\| (\d\.\d\d)\]/g)].map((m) => Number(m[1]));
    expect(confidences.length).toBeGreaterThan(3);
    expect(confidences).toEqual([...confidences].sort((a, b) => b - a));
    expect(confidences[0]).toBe(0.99);
  });

  it("still injects corrections under a tight budget full of stronger facts", () => {
    const strong = Array.from({ length: 50 }, (_, i) => fact({ content: `strong fact ${i}`, confidence: 0.99 }));
    const correction = fact({ content: "Call me Sam", category: "correction", confidence: 0.71 });
    const text = formatMemory(doc([...strong, correction]), {
      ...budget,
      maxInjectionTokens: 60,
      guaranteedTokenBudget: 20,
    });
    expect(text).toContain("Call me Sam");
    expect(Math.ceil(text.length / 4)).toBeLessThanOrEqual(60);
  });

  it("skips facts whose content is not a string", () => {
    const text = formatMemory(doc([fact({ content: 42 as never }), fact({ content: "ok" })]), budget);
    expect(text).toBe("Facts:\n- [context | 0.80] ok");
  });

  it("cuts summaries that alone exceed the budget", () => {
    const summaries = emptySummaries();
    const long = { summary: "x".repeat(2000), updatedAt: "" };
    const text = formatMemory(
      doc([], {
        user: { ...summaries.user, workContext: { summary: "short", updatedAt: "" }, topOfMind: long },
      }),
      { ...budget, maxInjectionTokens: 50 },
    );
    expect(text).toBe("User Context:\n- Work: short");
  });
});
