/**
 * One text for a missing custom skill on every custom-skill route, over a
 * real socket (DeerFlow ends some with a period and some without).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_KEY, putThreadFile, type Fixture } from "../support/fixture.js";
import { listenFixture, type SocketFixture } from "../support/socket.js";
import { skillArchive, skillMd } from "../support/zip.js";

const admin = { "x-api-key": ADMIN_KEY, "content-type": "application/json" };

/** Every custom-skill route that names a skill, with a valid body. */
const ROUTES: ReadonlyArray<[method: string, suffix: string, body?: unknown]> = [
  ["GET", ""],
  ["PUT", "", { content: skillMd("gone") }],
  ["DELETE", ""],
  ["GET", "/history"],
  ["POST", "/rollback", { history_index: -1 }],
];

describe("a missing custom skill over a socket", () => {
  let sock: SocketFixture;
  let fx: Fixture;

  beforeAll(async () => {
    sock = await listenFixture({ auth: true });
    fx = sock.fx;
  });
  afterAll(async () => {
    await fx.close();
  });

  async function call(
    method: string,
    name: string,
    suffix: string,
    body?: unknown,
  ): Promise<{ status: number; detail: unknown }> {
    const res = await fetch(sock.url(`/api/skills/custom/${name}${suffix}`), {
      method,
      headers: body === undefined ? { "x-api-key": ADMIN_KEY } : admin,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, detail: ((await res.json()) as { detail: unknown }).detail };
  }

  it.each(ROUTES)(
    "answers %s /api/skills/custom/<never-existed>%s with the same 404 text",
    async (method, suffix, body) => {
      const answer = await call(method, "never-existed", suffix, body);
      expect(answer).toEqual({ status: 404, detail: "Custom skill 'never-existed' not found" });
    },
  );

  it("answers every route that needs the skill itself with the same 404 text once it is deleted", async () => {
    await putThreadFile(fx, "t1", "outputs/gone.skill", skillArchive("gone"));
    const install = await fetch(sock.url("/api/skills/install"), {
      method: "POST",
      headers: admin,
      body: JSON.stringify({ thread_id: "t1", path: "/mnt/user-data/outputs/gone.skill" }),
    });
    expect(install.status).toBe(200);
    expect((await call("DELETE", "gone", "")).status).toBe(200);
    // History stays readable after a delete (DeerFlow's behaviour), so only these three apply.
    const answers = [
      await call("GET", "gone", ""),
      await call("PUT", "gone", "", { content: skillMd("gone") }),
      await call("DELETE", "gone", ""),
    ];
    expect(answers).toEqual([
      { status: 404, detail: "Custom skill 'gone' not found" },
      { status: 404, detail: "Custom skill 'gone' not found" },
      { status: 404, detail: "Custom skill 'gone' not found" },
    ]);
  });
});
