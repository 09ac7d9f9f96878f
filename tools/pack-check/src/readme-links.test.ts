import { describe, expect, it } from "vitest";
import { brokenOnRegistry, linkTargets } from "./readme-links.js";

describe("linkTargets", () => {
  it("finds inline links, images, reference definitions and HTML links, not code", () => {
    const md = [
      'See [the benchmarks](../../BENCHMARKS.md) and ![logo](docs/logo.png "Logo").',
      "[api]: https://example.org/api",
      '<a href="guide.md">guide</a> <img src="https://example.org/x.png">',
      "```ts\nconst x = fn[0](arg);\n```",
      "Inline `a[b](c)` is code.",
    ].join("\n");
    expect(linkTargets(md)).toEqual([
      "../../BENCHMARKS.md",
      "docs/logo.png",
      "https://example.org/api",
      "guide.md",
      "https://example.org/x.png",
    ]);
  });
});

describe("brokenOnRegistry", () => {
  it("keeps relative targets and accepts absolute URLs, mailto and anchors", () => {
    const md =
      "[a](../../BENCHMARKS.md) [b](https://github.com/o/r/blob/main/BENCHMARKS.md) [c](#install) [d](mailto:x@example.org) [e](./LICENSE)";
    expect(brokenOnRegistry(md)).toEqual(["../../BENCHMARKS.md", "./LICENSE"]);
  });
});
