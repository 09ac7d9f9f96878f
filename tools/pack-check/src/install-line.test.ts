import { describe, expect, it } from "vitest";
import { readmeInstallLine } from "./install-line.js";

const readme = (install: string): string =>
  `# @probe/p\n\nIntro with \`npm install nothing\`.\n\n## Install\n\n${install}\n\n## Usage\n\n\`\`\`sh\nnpm install later\n\`\`\`\n`;

describe("readmeInstallLine", () => {
  it("reads the first npm install command of the Install section's shell block", () => {
    const text = readme(
      "```sh\n# the package and its peer\nnpm install @probe/p @langchain/core langchain\n# optional\nnpm install -D vitest\n```",
    );
    expect(readmeInstallLine(text)).toEqual(["@probe/p", "@langchain/core", "langchain"]);
  });

  it("accepts `npm i`, drops flags and trailing comments", () => {
    expect(readmeInstallLine(readme("```sh\nnpm i --save @probe/p zod@^4 # and zod\n```"))).toEqual([
      "@probe/p",
      "zod@^4",
    ]);
  });

  it("names what is missing", () => {
    expect(() => readmeInstallLine("# p\n\nno sections\n")).toThrow('no "## Install" section');
    expect(() => readmeInstallLine(readme("Use your package manager."))).toThrow("no ```sh block");
    expect(() => readmeInstallLine(readme("```sh\napt-get install bubblewrap\n```"))).toThrow(
      "no `npm install <packages>` line",
    );
  });
});
