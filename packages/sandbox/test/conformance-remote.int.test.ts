/**
 * The conformance kit against `RemoteSandbox`: the sandbox service runs as a
 * separate process on loopback (`src/remote/server/main.ts`, the
 * `deerflow-sandbox-server` bin) and the kit talks to it through
 * `RemoteSandboxProvider`. The service runs commands in bubblewrap when it is
 * available (then the isolation checks apply), else on the host
 * (`--allow-host-bash`), and a missing bwrap in CI fails the file.
 */
import fs from "node:fs/promises";
import { afterAll, beforeAll } from "vitest";
import { BubblewrapRunner, RemoteSandboxProvider } from "../src/index.js";
import { sandboxConformance } from "../src/testing/index.js";
import { createProviderFolders, createTempRoot, SKILLS_FIXTURE, uniqueThreadId } from "./support/local-fixture.js";
import { startRemoteService, type RemoteService } from "./support/remote-service.js";

const isolated = await BubblewrapRunner.isAvailable();
if (!isolated && process.env["CI"] === "true") {
  throw new Error("bubblewrap (bwrap) is missing or unusable in CI: the remote sandbox service would run commands on the host; install it (`apt-get install bubblewrap`)");
}

/**
 * Limits the service applies (over its defaults). Files may exceed readBytes'
 * 100 MiB cap so that its TOO_LARGE answer is checked over the wire too.
 */
const LIMITS = { processes: 256, fileSizeBytes: 200 * 1024 * 1024 };

const root = await createTempRoot("sbx-kit-remote");
const { baseDir, skillsDir } = await createProviderFolders(root);
let service: RemoteService | undefined;

beforeAll(async () => {
  service = await startRemoteService([
    ...["--base-dir", baseDir, "--skills-dir", skillsDir, "--log-level", "warn"],
    ...["--limits", JSON.stringify(LIMITS)],
    ...(isolated ? [] : ["--allow-host-bash"]),
  ]);
}, 60_000);

afterAll(async () => {
  await service?.stop();
  await fs.rm(root, { recursive: true, force: true });
}, 30_000);

sandboxConformance(
  `RemoteSandbox over HTTP (service running ${isolated ? "bubblewrap" : "host"} commands)`,
  async () => {
    if (service === undefined) throw new Error("the sandbox service did not start (see beforeAll)");
    const provider = new RemoteSandboxProvider({ url: service.url, idleTimeoutMs: 0 });
    const sandbox = await provider.acquire(uniqueThreadId());
    return { sandbox, cleanup: () => provider.shutdown() };
  },
  {
    isolated,
    skillsMounted: true,
    skillsFixture: SKILLS_FIXTURE,
    timeoutScale: 2,
    hostRoots: [root],
    resourceLimits: LIMITS,
  },
);
