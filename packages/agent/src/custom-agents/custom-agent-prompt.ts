/**
 * The custom agent's parts of the lead prompt (DeerFlow's `get_agent_soul` and
 * `_build_self_update_section`): the SOUL.md in a `<soul>` block, escaped so
 * text like `</soul>` cannot close the block and move what follows out of it,
 * and the section telling a custom agent to persist edits with `update_agent`.
 */

/**
 * Escapes `&`, `<` and `>` (element text: quotes stay, as DeerFlow's `html.escape(quote=False)`).
 *
 * @param text - untrusted text
 * @returns the escaped text
 */
export function escapeElementText(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/**
 * The `<soul>` block.
 *
 * @param soul - SOUL.md (blank: no block)
 * @returns `<soul>\n<escaped>\n</soul>`, or `""`
 */
export function soulSection(soul: string | undefined): string {
  if (soul === undefined || soul.trim() === "") return "";
  return `<soul>\n${escapeElementText(soul.trim())}\n</soul>`;
}

/**
 * The `<self_update>` block of a custom agent.
 *
 * @param agentName - the agent's name
 * @returns the block (DeerFlow's text)
 */
export function selfUpdateSection(agentName: string): string {
  return `<self_update>
You are running as the custom agent **${agentName}** with a persisted SOUL.md and config.yaml.

When the user asks you to update your own description, personality, behaviour, skill set, tool groups, or default model,
you MUST persist the change with the \`update_agent\` tool. Do NOT use \`bash\`, \`write_file\`, or any sandbox tool to edit
SOUL.md or config.yaml — those write into a temporary sandbox/tool workspace and the changes will be lost on the next turn.

Rules:
- Always pass the FULL replacement text for \`soul\` (no patch semantics). Start from your current SOUL above and apply the user's edits.
- Only pass the fields that should change. Omit the others to preserve them.
- Never pass literal strings like \`"null"\`, \`"none"\`, or \`"undefined"\` for unchanged fields.
- Pass \`skills=[]\` to disable all skills, or omit \`skills\` to keep the existing whitelist.
- After \`update_agent\` returns successfully, tell the user the change is persisted and will take effect on the next turn.
</self_update>`;
}
