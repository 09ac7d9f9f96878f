/**
 * What of the host's root filesystem a bubblewrap sandbox gets to see.
 *
 * `/usr` is bound read-only and the top-level `bin`/`sbin`/`lib*` entries are
 * recreated as on the host (symlinks into `/usr` on merged-/usr systems,
 * read-only binds otherwise). `/etc` is **not** bound as a whole: it holds
 * host secrets (`shadow`, `ssh/`, `ssl/private/`, `npmrc`, `pip.conf`, database
 * and service configs, `environment`). Only the files programs need to run —
 * user and group names, name resolution, the dynamic loader cache, TLS roots,
 * time zone, MIME and locale data, a few runtime configs — are bound, each
 * read-only and only when it exists.
 */
import { lstatSync, readdirSync, readlinkSync } from "node:fs";

/** Top-level directories recreated inside the sandbox when the host has them. */
const ROOT_ENTRIES = ["bin", "sbin", "lib", "lib32", "lib64", "libx32"] as const;

/**
 * `/etc` entries bound into the sandbox (when present). Chosen to let common
 * tools (shells, coreutils, Python, Node, Java, git, curl, fonts) work, and
 * nothing that usually holds credentials.
 */
export const ETC_ALLOWLIST: readonly string[] = [
  // identities and name resolution
  "passwd",
  "group",
  "nsswitch.conf",
  "hosts",
  "host.conf",
  "resolv.conf",
  "gai.conf",
  "services",
  "protocols",
  "networks",
  // dynamic loader
  "ld.so.cache",
  "ld.so.conf",
  "ld.so.conf.d",
  // Debian alternatives (symlinks into /usr) and TLS trust roots
  "alternatives",
  "ssl/certs",
  "ssl/openssl.cnf",
  "ca-certificates",
  "ca-certificates.conf",
  "pki/tls/certs",
  "pki/ca-trust",
  "crypto-policies",
  // time, locale, MIME, file(1), fonts, OS identity
  "localtime",
  "timezone",
  "locale.alias",
  "locale.conf",
  "mime.types",
  "magic",
  "magic.mime",
  "fonts",
  "os-release",
  "lsb-release",
  "debian_version",
  "redhat-release",
  "alpine-release",
  // zsh reads /etc/zsh/zshenv even when non-interactive
  "zsh",
];

/** `/etc` entries matched by pattern: per-version runtime configs without secrets. */
const ETC_PATTERNS: readonly RegExp[] = [
  /^python3(\.\d+)?$/,
  /^java-\d+-openjdk$/,
  /^ImageMagick-\d+$/,
  /^matplotlibrc$/,
];

/** One top-level entry to recreate. */
interface RootEntry {
  /** Name under `/`, e.g. `lib64`. */
  readonly name: string;
  /** Symlink target (e.g. `usr/lib64`); absent for a real directory. */
  readonly symlinkTarget?: string;
}

/** The host filesystem as the sandbox reproduces it. */
export interface HostLayout {
  readonly rootEntries: readonly RootEntry[];
  /** Absolute `/etc/...` paths to bind read-only. */
  readonly etcPaths: readonly string[];
}

let cached: HostLayout | undefined;

/**
 * Inspects `/` and `/etc` once per process.
 *
 * @param etcAllowlist - `/etc`-relative names to bind; defaults to
 *   {@link ETC_ALLOWLIST} plus pattern matches.
 * @returns the layout to reproduce.
 */
export function probeHostLayout(etcAllowlist?: readonly string[]): HostLayout {
  if (etcAllowlist === undefined && cached !== undefined) return cached;
  const rootEntries: RootEntry[] = [];
  for (const name of ROOT_ENTRIES) {
    try {
      const info = lstatSync(`/${name}`);
      if (info.isSymbolicLink()) rootEntries.push({ name, symlinkTarget: readlinkSync(`/${name}`) });
      else if (info.isDirectory()) rootEntries.push({ name });
    } catch {
      // absent on this host (e.g. no lib32): nothing to recreate
    }
  }
  let names = etcAllowlist ?? ETC_ALLOWLIST;
  if (etcAllowlist === undefined) {
    try {
      names = [...names, ...readdirSync("/etc").filter((n) => ETC_PATTERNS.some((p) => p.test(n)))];
    } catch {
      // no readable /etc: bind nothing extra
    }
  }
  const etcPaths = [...new Set(names)]
    .map((n) => `/etc/${n}`)
    .filter((p) => {
      try {
        lstatSync(p);
        return true;
      } catch {
        return false;
      }
    });
  const layout = { rootEntries, etcPaths };
  if (etcAllowlist === undefined) cached = layout;
  return layout;
}
