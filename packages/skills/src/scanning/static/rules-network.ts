/**
 * Network and resource rules for every text file: cloud metadata endpoints,
 * fork bombs, and cleartext HTTP (external MEDIUM, local LOW).
 */
import type { Finding } from "../types.js";
import { findingAtMatch, lineAt, makeFinding } from "./catalogue.js";
import { httpUrls, isLocalHost } from "./http-urls.js";

const CLOUD_METADATA = /169\.254\.169\.254|metadata\.google\.internal|fd00:ec2::254/i;
/**
 * `:(){ :|:& };:` and the same shape under any function name
 * (`bomb(){ bomb|bomb& };bomb`), with free spacing.
 */
export const FORK_BOMB = /(?<![\w:])([A-Za-z_:][\w:]*)\s*\(\s*\)\s*\{\s*\1\s*\|\s*\1\s*&\s*;?\s*\}\s*;\s*\1(?![\w:])/;

/**
 * Runs the network and resource rules over one text file. Each rule reports
 * its first occurrence; local and external cleartext URLs are reported
 * separately so a local URL first cannot hide an external one.
 *
 * @param relPath - package-relative path.
 * @param text - decoded content.
 * @returns the findings.
 */
export function networkFindings(relPath: string, text: string): Finding[] {
  const findings: Finding[] = [];
  const metadata = CLOUD_METADATA.exec(text);
  if (metadata !== null) findings.push(findingAtMatch("network-cloud-metadata", relPath, text, metadata));
  const bomb = FORK_BOMB.exec(text);
  if (bomb !== null) findings.push(findingAtMatch("resource-fork-bomb", relPath, text, bomb));
  let sawLocal = false;
  let sawExternal = false;
  for (const url of httpUrls(text)) {
    const local = isLocalHost(url.host);
    if (local ? sawLocal : sawExternal) continue;
    findings.push(
      makeFinding(local ? "network-local-http" : "network-cleartext-http", {
        file: relPath,
        line: lineAt(text, url.index),
        evidence: url.display,
      }),
    );
    if (local) sawLocal = true;
    else sawExternal = true;
    if (sawLocal && sawExternal) break;
  }
  return findings;
}
