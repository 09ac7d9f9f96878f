import { describe, expect, it } from "vitest";
import { classifyAddress } from "./address-policy.js";
import type { HostResolver } from "./resolver.js";
import { vetUrl } from "./vet-url.js";

const names: Record<string, string[]> = {
  "public.test": ["93.184.216.34"],
  "mixed.test": ["93.184.216.34", "10.1.2.3"],
  "inner.test": ["192.168.1.10"],
  "v6loop.test": ["::1"],
  "meta.test": ["169.254.169.254"],
};
const resolver: HostResolver = async (h) =>
  (names[h] ?? []).map((address) => ({ address, family: address.includes(":") ? 6 : 4 }) as const);

// Every row: a URL a model (or a redirect) might give, and whether the default policy refuses it.
const hostile: [string, string][] = [
  ["http://127.0.0.1/", "loopback"],
  ["http://127.1/", "loopback"],
  ["http://0x7f.1/", "loopback"],
  ["http://0177.0.0.1/", "loopback"],
  ["http://2130706433/", "loopback"],
  ["http://0x7f000001/", "loopback"],
  ["http://localhost:8080/", "loopback"],
  ["http://foo.localhost/", "loopback"],
  ["http://[::1]/", "loopback"],
  ["http://10.0.0.1/", "private"],
  ["http://172.16.5.4/", "private"],
  ["http://172.31.255.255/", "private"],
  ["http://192.168.0.1/", "private"],
  ["http://[fd12:3456::1]/", "private"],
  ["http://169.254.169.254/latest/meta-data/", "metadata"],
  ["http://[fd00:ec2::254]/", "metadata"],
  ["http://metadata.google.internal/", "metadata"],
  ["http://169.254.1.1/", "link-local"],
  ["http://[fe80::1]/", "link-local"],
  ["http://100.64.0.1/", "cgnat"],
  ["http://100.127.255.254/", "cgnat"],
  ["http://224.0.0.1/", "multicast"],
  ["http://[ff02::1]/", "multicast"],
  ["http://0.0.0.0/", "reserved"],
  ["http://[::]/", "reserved"],
  ["http://255.255.255.255/", "reserved"],
  ["http://240.0.0.1/", "reserved"],
  ["http://198.18.0.1/", "reserved"],
  ["http://[::ffff:127.0.0.1]/", "loopback"],
  ["http://[::ffff:7f00:1]/", "loopback"],
  ["http://[::ffff:a9fe:a9fe]/", "metadata"],
  ["http://[::127.0.0.1]/", "loopback"],
  ["http://[::ffff:0:10.0.0.1]/", "private"],
  ["http://[64:ff9b::10.0.0.1]/", "private"],
  ["http://[64:ff9b::a9fe:a9fe]/", "metadata"],
  ["http://[2002:c0a8:0101::1]/", "private"],
  ["http://[2001:db8::1]/", "reserved"],
  ["http://inner.test/", "private"],
  ["http://mixed.test/", "private"],
  ["http://v6loop.test/", "loopback"],
  ["http://meta.test/", "metadata"],
  ["http://INNER.test./", "private"],
];

describe("vetUrl: the SSRF table", () => {
  it.each(hostile)("refuses %s (%s)", async (url, cls) => {
    const err = await vetUrl(url, {}, resolver).then(
      () => undefined,
      (e: unknown) => e as { code: string; details?: { class?: string }; message: string },
    );
    expect(err?.code).toBe("URL_BLOCKED");
    expect(err?.details?.class).toBe(cls);
    expect(err?.message).toMatch(/^Refusing to fetch/);
  });

  it.each([
    "ftp://example.org/",
    "file:///etc/passwd",
    "gopher://x/",
    "javascript:alert(1)",
    "//no-scheme.org",
    "not a url",
  ])("refuses the non-http URL %s", async (url) => {
    await expect(vetUrl(url, { allowPrivateAddresses: true }, resolver)).rejects.toMatchObject({
      code: "URL_UNSUPPORTED",
    });
  });

  it("allows public literals and names", async () => {
    await expect(vetUrl("http://93.184.216.34/x", {}, resolver)).resolves.toBeInstanceOf(URL);
    await expect(vetUrl("https://public.test/x", {}, resolver)).resolves.toBeInstanceOf(URL);
    await expect(vetUrl("http://[::ffff:93.184.216.34]/", {}, resolver)).resolves.toBeInstanceOf(URL);
    await expect(vetUrl("http://[2606:4700::1111]/", {}, resolver)).resolves.toBeInstanceOf(URL);
  });

  it("allow_private_addresses opens loopback and private only; metadata, link-local, CGNAT stay refused", async () => {
    const open = { allowPrivateAddresses: true };
    for (const ok of [
      "http://127.0.0.1/",
      "http://10.0.0.1/",
      "http://inner.test/",
      "http://[::1]/",
      "http://localhost/",
    ])
      await expect(vetUrl(ok, open, resolver)).resolves.toBeInstanceOf(URL);
    for (const no of [
      "http://169.254.169.254/",
      "http://[fd00:ec2::254]/",
      "http://meta.test/",
      "http://metadata.google.internal/",
      "http://[::ffff:169.254.169.254]/",
      "http://169.254.2.2/",
      "http://100.64.0.1/",
      "http://224.0.0.1/",
    ])
      await expect(vetUrl(no, open, resolver)).rejects.toMatchObject({ code: "URL_BLOCKED" });
  });

  it("an unresolvable host is DNS_FAILED", async () => {
    await expect(vetUrl("http://nowhere.test/", {}, resolver)).rejects.toMatchObject({ code: "DNS_FAILED" });
    const failing: HostResolver = async () => {
      throw Object.assign(new Error("getaddrinfo ENOTFOUND"), { code: "ENOTFOUND" });
    };
    await expect(vetUrl("http://x.test/", {}, failing)).rejects.toMatchObject({ code: "DNS_FAILED" });
  });

  it("classifies public v6 wrappers of public v4 as public and non-IP text as reserved", () => {
    expect(classifyAddress("::ffff:8.8.8.8")).toBe("public");
    expect(classifyAddress("64:ff9b::8.8.8.8")).toBe("public");
    expect(classifyAddress("example.org")).toBe("reserved");
  });
});
