/**
 * The path of a request URL (`request.url` carries the query string).
 *
 * @param url - e.g. `/api/info?x=1`
 * @returns e.g. `/api/info`
 */
export function pathOf(url: string): string {
  const q = url.indexOf("?");
  return q === -1 ? url : url.slice(0, q);
}
