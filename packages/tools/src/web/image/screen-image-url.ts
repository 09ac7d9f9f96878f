/**
 * Image URLs go to the model (and on to image generation, which downloads
 * them), so the ones pointing inside a network are dropped: only http(s), no
 * `localhost`, and an IP host must be public. Names are not resolved (they are
 * citations here; whoever downloads them uses the safe fetcher).
 */
import { classifyAddress } from "../safe-fetch/address-policy.js";
import { literalHost } from "../safe-fetch/vet-url.js";

/**
 * @param raw - a URL from a provider
 * @returns the URL, or `""` when it is not safe to hand on
 */
export function screenImageUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "";
  const host = url.hostname.replace(/\.$/, "");
  if (host === "localhost" || host.endsWith(".localhost")) return "";
  const literal = literalHost(url);
  if (literal !== undefined && classifyAddress(literal) !== "public") return "";
  return url.href;
}
