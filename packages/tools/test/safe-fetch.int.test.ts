import { afterEach, describe, expect, it } from "vitest";
import { createSafeFetch, readLimitedBody, type HostResolver } from "../src/index.js";
import { startServer, type TestServer } from "./support/http-server.js";

const servers: TestServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});
async function server(handler: Parameters<typeof startServer>[0]): Promise<TestServer> {
  const s = await startServer(handler);
  servers.push(s);
  return s;
}

describe("createSafeFetch against local servers", () => {
  it("refuses loopback by default, before any connection", async () => {
    const s = await server((_req, res) => res.end("secret"));
    await expect(createSafeFetch()(`${s.url}/`)).rejects.toMatchObject({ code: "URL_BLOCKED" });
    expect(s.requests).toHaveLength(0);
  });

  it("connects to the address its resolver vetted (the name is never looked up again)", async () => {
    const s = await server((req, res) => res.end(`host=${req.headers.host}`));
    const resolver: HostResolver = async (h) => (h === "pages.test" ? [{ address: "127.0.0.1", family: 4 }] : []);
    const f = createSafeFetch({ allowPrivateAddresses: true, resolver });
    const res = await f(`http://pages.test:${s.port}/a`);
    expect(await res.text()).toBe(`host=pages.test:${s.port}`);
  });

  it("DNS rebinding: a resolver that answers public then private never gets a private connection", async () => {
    const s = await server((_req, res) => res.end("internal admin"));
    let calls = 0;
    const rebinding: HostResolver = async () => {
      calls++;
      return [{ address: calls % 2 === 1 ? "203.0.114.7" : "127.0.0.1", family: 4 }];
    };
    const f = createSafeFetch({ resolver: rebinding, timeoutMs: 60_000 });
    for (let i = 0; i < 4; i++) {
      const err = await f(`http://rebind.test:${s.port}/`).then(
        () => undefined,
        (e: unknown) => e as { code: string },
      );
      // Either the public answer was used (and that address is unreachable here) or the private one was refused.
      expect(["URL_BLOCKED", "NETWORK", "TIMEOUT"]).toContain(err?.code);
    }
    expect(calls).toBeGreaterThan(1);
    expect(s.requests).toHaveLength(0);
  }, 120_000);

  it("vets every redirect hop: to metadata, CGNAT, link-local and file: are refused even with private allowed", async () => {
    const targets = [
      "http://169.254.169.254/latest/meta-data/",
      "http://[::ffff:a9fe:a9fe]/",
      "http://100.64.0.1/",
      "http://169.254.10.10/",
      "file:///etc/passwd",
    ];
    const s = await server((req, res) => {
      const i = Number(new URL(req.url ?? "/", "http://x").searchParams.get("i"));
      res.writeHead(302, { location: targets[i] });
      res.end();
    });
    const f = createSafeFetch({ allowPrivateAddresses: true });
    for (let i = 0; i < targets.length; i++)
      await expect(f(`${s.url}/r?i=${i}`)).rejects.toMatchObject({
        code: i === targets.length - 1 ? "REDIRECT_INVALID" : "URL_BLOCKED",
      });
  });

  it("a redirect to a name that resolves to a metadata address is refused at the hop", async () => {
    const s = await server((req, res) => {
      if (req.url === "/start") {
        res.writeHead(301, { location: `http://inner.test:${s.port}/secret` });
        return res.end();
      }
      return res.end("secret");
    });
    // Local servers are loopback, so the first hop needs private allowed; the hop's name resolves to metadata.
    const resolver: HostResolver = async (h) =>
      h === "outer.test" ? [{ address: "127.0.0.1", family: 4 }] : [{ address: "169.254.169.254", family: 4 }];
    const f = createSafeFetch({ allowPrivateAddresses: true, resolver });
    await expect(f(`http://outer.test:${s.port}/start`)).rejects.toMatchObject({ code: "URL_BLOCKED" });
    expect(s.requests.map((r) => r.url)).toEqual(["/start"]);
  });

  it("follows a redirect chain to its end and stops after maxRedirects", async () => {
    const s = await server((req, res) => {
      const n = Number(req.url?.slice(1));
      if (n < 3) {
        res.writeHead(302, { location: `/${n + 1}` });
        return res.end();
      }
      return res.end("end");
    });
    const ok = await createSafeFetch({ allowPrivateAddresses: true })(`${s.url}/0`);
    expect(await ok.text()).toBe("end");
    await expect(createSafeFetch({ allowPrivateAddresses: true, maxRedirects: 2 })(`${s.url}/0`)).rejects.toMatchObject(
      {
        code: "REDIRECT_INVALID",
      },
    );
  });

  it("drops credentials on a cross-origin redirect", async () => {
    const b = await server((req, res) => res.end(String(req.headers.authorization ?? "none")));
    const a = await server((_req, res) => {
      res.writeHead(302, { location: `http://localhost:${b.port}/` });
      res.end();
    });
    const res = await createSafeFetch({ allowPrivateAddresses: true })(`${a.url}/`, {
      headers: { authorization: "Bearer secret" },
    });
    expect(await res.text()).toBe("none");
  });

  it("refuses a huge body, declared or not", async () => {
    const s = await server((req, res) => {
      if (req.url === "/declared") {
        res.writeHead(200, { "content-length": String(50_000_000) });
        res.write("x");
        return; // the client must not wait for the rest
      }
      res.writeHead(200, { "content-type": "text/plain" });
      const chunk = "y".repeat(64 * 1024);
      const push = (): void => {
        while (res.write(chunk)) {
          /* fill the socket */
        }
        res.once("drain", push);
      };
      push();
      res.on("close", () => res.removeAllListeners("drain"));
    });
    const f = createSafeFetch({ allowPrivateAddresses: true });
    await expect(readLimitedBody(await f(`${s.url}/declared`), { maxBytes: 1_000_000 })).rejects.toMatchObject({
      code: "BODY_TOO_LARGE",
    });
    await expect(readLimitedBody(await f(`${s.url}/stream`), { maxBytes: 1_000_000 })).rejects.toMatchObject({
      code: "BODY_TOO_LARGE",
    });
  });

  it("a body that trickles forever ends with TIMEOUT", async () => {
    const s = await server((_req, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.write("<html>");
      const t = setInterval(() => res.write(" "), 100);
      res.on("close", () => clearInterval(t));
    });
    const res = await createSafeFetch({ allowPrivateAddresses: true, timeoutMs: 1500 })(`${s.url}/`);
    await expect(readLimitedBody(res, { maxBytes: 10_000_000 })).rejects.toMatchObject({ code: "TIMEOUT" });
  });

  it("headers that never come end with TIMEOUT; a caller's abort ends with its reason", async () => {
    const s = await server(() => {
      /* never answers */
    });
    await expect(createSafeFetch({ allowPrivateAddresses: true, timeoutMs: 1000 })(`${s.url}/`)).rejects.toMatchObject({
      code: "TIMEOUT",
    });
    const ac = new AbortController();
    const pending = createSafeFetch({ allowPrivateAddresses: true })(`${s.url}/`, { signal: ac.signal });
    ac.abort(new Error("run cancelled"));
    await expect(pending).rejects.toThrow("run cancelled");
  });
});
