/**
 * The secret that signs session cookies: `AUTH_JWT_SECRET` (DeerFlow's name),
 * else a random one generated on first start and kept at
 * `{dataDir}/.jwt_secret` (mode 0600, linked into place whole) so sessions survive restarts and every
 * instance sharing the data folder signs alike. Instances that share no
 * folder (several hosts on PostgreSQL) must all get `AUTH_JWT_SECRET`.
 */
import { randomBytes } from "node:crypto";
import { chmod, link, mkdir, readFile, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { ServerStartError } from "./errors.js";

/** The environment variable holding the secret. */
const AUTH_SECRET_ENV = "AUTH_JWT_SECRET";
/** The file under the data folder. */
export const AUTH_SECRET_FILE = ".jwt_secret";
/** Shortest accepted secret (bytes). */
const MIN_SECRET_BYTES = 32;

/** Where the secret came from. */
export interface AuthSecret {
  readonly secret: string;
  readonly source: "environment" | "file" | "generated";
}

async function readSecretFile(file: string): Promise<string | undefined> {
  try {
    return (await readFile(file, "utf8")).trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
}

/**
 * @param env - the environment.
 * @param dataDir - the data folder.
 * @returns the secret.
 * @throws ServerStartError `SERVER_ENV_INVALID` for a secret shorter than 32 bytes.
 */
export async function loadAuthSecret(env: NodeJS.ProcessEnv, dataDir: string): Promise<AuthSecret> {
  const fromEnv = env[AUTH_SECRET_ENV]?.trim();
  if (fromEnv !== undefined && fromEnv !== "") {
    if (Buffer.byteLength(fromEnv, "utf8") < MIN_SECRET_BYTES) {
      throw new ServerStartError("SERVER_ENV_INVALID", `${AUTH_SECRET_ENV} must be at least ${MIN_SECRET_BYTES} bytes`);
    }
    return { secret: fromEnv, source: "environment" };
  }
  const file = path.join(dataDir, AUTH_SECRET_FILE);
  const existing = await readSecretFile(file);
  if (existing !== undefined && existing !== "") {
    if (Buffer.byteLength(existing, "utf8") < MIN_SECRET_BYTES) {
      throw new ServerStartError("SERVER_ENV_INVALID", `${file} holds a secret shorter than ${MIN_SECRET_BYTES} bytes`);
    }
    return { secret: existing, source: "file" };
  }
  await mkdir(dataDir, { recursive: true });
  const secret = randomBytes(48).toString("base64url");
  // Written whole under a private name, then linked into place: link() fails if the file exists, so
  // of instances starting at once exactly one secret wins, and no one ever reads a half-written file.
  const staging = `${file}.${process.pid}.${randomBytes(6).toString("hex")}`;
  await writeFile(staging, `${secret}\n`, { encoding: "utf8", mode: 0o600, flag: "wx" });
  try {
    await chmod(staging, 0o600);
    await link(staging, file);
    return { secret, source: "generated" };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    const written = await readSecretFile(file);
    if (written === undefined || written === "") throw err;
    return { secret: written, source: "file" };
  } finally {
    await unlink(staging).catch(() => {});
  }
}
