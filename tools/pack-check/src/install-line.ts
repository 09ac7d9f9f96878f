/**
 * The README's install line: what a third party types first, and therefore all
 * that the README's first example may rely on.
 */

/**
 * The packages installed by the first `npm install` (or `npm i`) command of
 * the first shell block in the README's "Install" section, flags left out.
 *
 * @param readme - The README's Markdown.
 * @returns Package specs in the order written (`@deerflow/skills`, `langchain`...).
 * @throws when the README has no Install section, no shell block there, or no npm install command in it.
 */
export function readmeInstallLine(readme: string): string[] {
  const section = /^##\s+Install(?:ation)?\s*$([\s\S]*?)(?=^##\s|(?![\s\S]))/m.exec(readme)?.[1];
  if (section === undefined) throw new Error('README has no "## Install" section');
  const block = /```(?:sh|bash|shell)\n([\s\S]*?)```/.exec(section)?.[1];
  if (block === undefined) throw new Error("README's Install section has no ```sh block");
  for (const line of block.split("\n")) {
    const words = line.replace(/#.*$/, "").trim().split(/\s+/);
    if (words[0] !== "npm" || (words[1] !== "install" && words[1] !== "i")) continue;
    const specs = words.slice(2).filter((w) => w !== "" && !w.startsWith("-"));
    if (specs.length > 0) return specs;
  }
  throw new Error("README's Install block has no `npm install <packages>` line");
}
