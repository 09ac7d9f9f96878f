/**
 * The answer of a search tool (`web_search`, `image_search` or any tool with
 * their shape) as links with titles: `{query, results: [{title, url, content}]}`
 * or `{results: [{title, image_url, thumbnail_url}]}`; `{error}` as its text.
 * Only http(s) URLs become links (a result could carry `javascript:`).
 */

interface WebHit {
  readonly title: string;
  readonly url: string;
  readonly snippet: string;
}

function safeHref(raw: unknown): string | undefined {
  if (typeof raw !== "string") return undefined;
  try {
    const u = new URL(raw);
    return u.protocol === "http:" || u.protocol === "https:" ? u.href : undefined;
  } catch {
    return undefined;
  }
}

/** The hits of a search tool's text, or `undefined` when it is not one. */
function parseWebResults(
  text: string,
): { query: string; hits: WebHit[]; images: boolean } | { query: string; error: string } | undefined {
  if (!text.startsWith("{")) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  const o = data as { query?: unknown; results?: unknown; error?: unknown };
  const query = typeof o.query === "string" ? o.query : "";
  if (typeof o.error === "string" && "query" in (data as object)) return { query, error: o.error };
  if (!Array.isArray(o.results)) return undefined;
  const images = o.results.some((r) => typeof (r as { image_url?: unknown }).image_url === "string");
  const hits: WebHit[] = [];
  for (const r of o.results as Record<string, unknown>[]) {
    const url = safeHref(images ? r["image_url"] || r["thumbnail_url"] : r["url"]);
    if (url === undefined) continue;
    const title = typeof r["title"] === "string" && r["title"].trim() !== "" ? r["title"] : url;
    hits.push({ title, url, snippet: typeof r["content"] === "string" ? r["content"] : "" });
  }
  if (hits.length === 0 && o.results.length > 0) return undefined;
  return { query, hits, images };
}

/** Links with titles (and snippets) of a search tool's answer. */
export function WebResults({ text }: { text: string }) {
  const parsed = parseWebResults(text);
  if (parsed === undefined) return null;
  if ("error" in parsed)
    return (
      <p className="web-results-error" data-testid="web-results-error">
        Search for “{parsed.query}” failed: {parsed.error}
      </p>
    );
  const label = `${parsed.images ? "Images" : "Results"} for ${parsed.query || "the search"}`;
  return (
    <ol className="web-results" aria-label={label} data-testid="web-results">
      {parsed.hits.map((h, i) => (
        <li key={`${h.url}-${i}`}>
          <a href={h.url} target="_blank" rel="noopener noreferrer">
            {h.title}
          </a>{" "}
          <span className="web-results-host">{new URL(h.url).host}</span>
          {h.snippet !== "" && <p className="web-results-snippet">{h.snippet}</p>}
        </li>
      ))}
    </ol>
  );
}
