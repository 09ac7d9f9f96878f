/**
 * Links in a README that break on the npm registry's page: there the README
 * is shown alone, so a relative link (`../../BENCHMARKS.md`, `docs/x.md`)
 * points nowhere. Absolute URLs, `mailto:` and in-page anchors work.
 */

const WORKS_ON_REGISTRY = /^(?:https?:\/\/|mailto:|#)/;

/** Markdown with fenced blocks and inline code removed (their brackets are code, not links). */
function withoutCode(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "").replace(/`[^`\n]*`/g, "");
}

/** Every link target of `markdown`: inline links and images, reference definitions, HTML href/src. */
export function linkTargets(markdown: string): string[] {
  const text = withoutCode(markdown);
  const targets: string[] = [];
  for (const m of text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) targets.push(m[1] as string);
  for (const m of text.matchAll(/^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)) targets.push(m[1] as string);
  for (const m of text.matchAll(/<(?:a|img)\s[^>]*?(?:href|src)\s*=\s*["']([^"']+)["']/gi))
    targets.push(m[1] as string);
  return targets;
}

/** The link targets of `markdown` that do not work on the registry's page. */
export function brokenOnRegistry(markdown: string): string[] {
  return linkTargets(markdown).filter((target) => !WORKS_ON_REGISTRY.test(target));
}
