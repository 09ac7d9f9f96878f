/** Every built-in `web_fetch` provider by `use:` id. */
import { directFetch } from "./direct-fetch.js";
import { firecrawlFetch, jinaFetch } from "./remote-fetchers.js";
import type { WebFetchProvider } from "./web-fetch-provider.js";

export const WEB_FETCH_PROVIDERS: Readonly<Record<string, WebFetchProvider>> = Object.fromEntries(
  [directFetch, jinaFetch, firecrawlFetch].map((p) => [p.id, p]),
);
