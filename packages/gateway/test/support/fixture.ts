/**
 * A gateway over temp dirs: a skills root with public skills, thread files, API keys.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { SkillCatalog, type ModerationScanner } from "@deerflow/skills";
import type { FastifyInstance } from "fastify";
import { LocalThreadFiles, createGateway, createSharedSkillsBackend, type GatewayOptions } from "../../src/index.js";
import { skillMd } from "./zip.js";

export const ADMIN_KEY = "admin-key-0123456789";
export const USER_KEY = "user-key-0123456789";

export interface Fixture {
  readonly app: FastifyInstance;
  readonly dir: string;
  readonly skillsRoot: string;
  readonly filesRoot: string;
  readonly catalog: SkillCatalog;
  readonly files: LocalThreadFiles;
  /** Host folder of a thread's user data (user `default`, or `alice` for the user key). */
  userData(threadId: string, userId?: string): string;
  close(): Promise<void>;
}

export interface FixtureOptions {
  /** Turn API-key auth on (admin key → admin `default`, user key → non-admin `alice`). */
  readonly auth?: boolean;
  readonly gateway?: Partial<GatewayOptions>;
  /** Moderation scanner of installs and edits. */
  readonly moderation?: ModerationScanner;
  /** `maxArchiveBytes` of the skills routes. */
  readonly maxArchiveBytes?: number;
  /** Public skills to create (name → SKILL.md). Default: deep-research and data-analysis. */
  readonly publicSkills?: Record<string, string>;
}

export async function createFixture(options: FixtureOptions = {}): Promise<Fixture> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "gateway-test-"));
  const skillsRoot = path.join(dir, "skills");
  const filesRoot = path.join(dir, "data");
  const publicSkills = options.publicSkills ?? {
    "deep-research": skillMd("deep-research"),
    "data-analysis": skillMd("data-analysis"),
  };
  for (const [name, text] of Object.entries(publicSkills)) {
    await mkdir(path.join(skillsRoot, "public", name), { recursive: true });
    await writeFile(path.join(skillsRoot, "public", name, "SKILL.md"), text);
  }
  await mkdir(path.join(skillsRoot, "custom"), { recursive: true });
  const catalog = new SkillCatalog({
    root: skillsRoot,
    extensionsConfigPath: path.join(dir, "extensions_config.json"),
  });
  const files = new LocalThreadFiles({ root: filesRoot });
  const app = await createGateway({
    skills: {
      backend: createSharedSkillsBackend({
        catalog,
        ...(options.moderation === undefined ? {} : { moderation: options.moderation }),
      }),
      tempDir: dir,
      ...(options.maxArchiveBytes === undefined ? {} : { maxArchiveBytes: options.maxArchiveBytes }),
    },
    threadFiles: files,
    ...(options.auth
      ? {
          auth: {
            apiKeys: [
              { key: ADMIN_KEY, admin: true },
              { key: USER_KEY, userId: "alice" },
            ],
          },
        }
      : {}),
    ...options.gateway,
  });
  await app.ready();
  return {
    app,
    dir,
    skillsRoot,
    filesRoot,
    catalog,
    files,
    userData: (threadId, userId = "default") => path.join(filesRoot, "users", userId, "threads", threadId, "user-data"),
    async close() {
      await app.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Writes a file into a thread's user data and returns its host path. */
export async function putThreadFile(
  fx: Fixture,
  threadId: string,
  rel: string,
  data: Buffer | string,
  userId?: string,
): Promise<string> {
  const file = path.join(fx.userData(threadId, userId), rel);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, data);
  return file;
}
