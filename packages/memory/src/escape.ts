/** HTML escaping of memory text put into prompts, so stored text cannot open or close a prompt tag. */
export function escapeText(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}
