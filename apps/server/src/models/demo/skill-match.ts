/**
 * How the demo model finds a skill: it reads the `<available_skills>` entries
 * the lead agent's system prompt carries (name, description, location) and
 * scores them against the words of the request.
 */

/** One `<skill>` entry of the prompt. */
export interface PromptSkill {
  readonly name: string;
  readonly description: string;
  /** Container path of SKILL.md. */
  readonly location: string;
}

const ENTRY =
  /<skill>\s*<name>([^<]*)<\/name>\s*<description>([^<]*)<\/description>\s*<location>([^<]*)<\/location>\s*<\/skill>/g;

const STOPWORDS = new Set(
  (
    "about also asks could does file files from have help into just like list make more need only please show some such than that their them then there they this those uses using what when where which while with would write your " +
    "the and for are can you use run read skill skills user want"
  ).split(" "),
);

function unescape(text: string): string {
  return text
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");
}

/**
 * Parses the skill entries out of a system prompt.
 *
 * @param systemPrompt - the system message text
 * @returns entries in prompt order (empty without an `<available_skills>` block)
 */
export function parsePromptSkills(systemPrompt: string): PromptSkill[] {
  const block = /<available_skills>([\s\S]*?)<\/available_skills>/.exec(systemPrompt)?.[1];
  if (block === undefined) return [];
  return [...block.matchAll(ENTRY)].map((m) => ({
    name: unescape(m[1] ?? "").trim(),
    description: unescape(m[2] ?? "").trim(),
    location: unescape(m[3] ?? "").trim(),
  }));
}

/** Lower-case words of at least 4 letters, minus stopwords. */
export function keywords(text: string): string[] {
  return (text.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((w) => w.length >= 4 && !STOPWORDS.has(w));
}

function related(a: string, b: string): boolean {
  if (a === b) return true;
  return a.length >= 5 && b.length >= 5 && a.slice(0, 5) === b.slice(0, 5);
}

/**
 * Picks the skill that best matches the request: a word matching a part of
 * the skill's name scores 3, one matching a description word scores 1; the
 * best score of at least 3 wins (ties: the first in prompt order).
 *
 * @param request - the user's message
 * @param skills - parsed prompt skills
 * @returns the matching skill, if any
 */
export function matchSkill(request: string, skills: readonly PromptSkill[]): PromptSkill | undefined {
  const words = [...new Set(keywords(request))];
  let best: PromptSkill | undefined;
  let bestScore = 0;
  for (const skill of skills) {
    const nameParts = skill.name
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((p) => p.length >= 4);
    const descWords = new Set(keywords(skill.description));
    let score = 0;
    for (const w of words) {
      if (nameParts.some((p) => related(p, w))) score += 3;
      else if ([...descWords].some((d) => related(d, w))) score += 1;
    }
    if (score > bestScore) {
      best = skill;
      bestScore = score;
    }
  }
  return bestScore >= 3 ? best : undefined;
}
