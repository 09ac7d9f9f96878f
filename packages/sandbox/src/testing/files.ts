/**
 * `readFile` / `writeFile` / `readBytes` / `writeBytes`: round trips of text
 * (unicode included) and bytes, appends, parent directories, overwrites.
 */
import { OUTPUTS_PATH, UPLOADS_PATH } from "../limits.js";
import { expectSandboxError, expectSuccess, shellQuote, type Kit } from "./context.js";

/** Every byte value, then a few invalid UTF-8 sequences. */
function binarySample(): Uint8Array {
  const bytes = new Uint8Array(256 + 6);
  for (let i = 0; i < 256; i++) bytes[i] = i;
  bytes.set([0xc3, 0x28, 0xff, 0xfe, 0x00, 0x80], 256);
  return bytes;
}

/** Registers the file read/write checks. */
export function fileTests(kit: Kit): void {
  const { expect } = kit;
  kit.test("round-trips text, unicode included", async () => {
    const path = `${kit.dir("text")}/unicode.txt`;
    const content = "ASCII line\nhéllo wörld — 世界 🦌 \u{1F600}\r\ntabs\tand trailing spaces  \n\n";
    await kit.sandbox().writeFile(path, content);
    expect(await kit.sandbox().readFile(path)).toBe(content);
  });

  kit.test("round-trips an empty file", async () => {
    const path = `${kit.dir("empty")}/empty.txt`;
    await kit.sandbox().writeFile(path, "");
    expect(await kit.sandbox().readFile(path)).toBe("");
    expect((await kit.sandbox().readBytes(path)).byteLength).toBe(0);
  });

  kit.test("writes text as UTF-8 bytes", async () => {
    const path = `${kit.dir("utf8")}/u.txt`;
    await kit.sandbox().writeFile(path, "é🦌");
    expect(Array.from(await kit.sandbox().readBytes(path))).toEqual(Array.from(Buffer.from("é🦌", "utf8")));
  });

  kit.test("creates missing parent directories", async () => {
    const path = `${kit.dir("parents")}/a/b/c/deep.txt`;
    await kit.sandbox().writeFile(path, "deep");
    expect(await kit.sandbox().readFile(path)).toBe("deep");
  });

  kit.test("replaces the content of an existing file", async () => {
    const path = `${kit.dir("overwrite")}/f.txt`;
    await kit.sandbox().writeFile(path, "a much longer first version\n");
    await kit.sandbox().writeFile(path, "short");
    expect(await kit.sandbox().readFile(path)).toBe("short");
  });

  kit.test("appends with append: true", async () => {
    const path = `${kit.dir("append")}/log.txt`;
    await kit.sandbox().writeFile(path, "one\n");
    await kit.sandbox().writeFile(path, "two\n", { append: true });
    await kit.sandbox().writeFile(path, "drei ✓\n", { append: true });
    expect(await kit.sandbox().readFile(path)).toBe("one\ntwo\ndrei ✓\n");
  });

  kit.test("creates the file when appending to a missing one", async () => {
    const path = `${kit.dir("append-new")}/new.txt`;
    await kit.sandbox().writeFile(path, "first", { append: true });
    expect(await kit.sandbox().readFile(path)).toBe("first");
  });

  kit.test("round-trips every byte value through writeBytes / readBytes", async () => {
    const path = `${kit.dir("bytes")}/all.bin`;
    const data = binarySample();
    await kit.sandbox().writeBytes(path, data);
    const back = await kit.sandbox().readBytes(path);
    expect(back).toBeInstanceOf(Uint8Array);
    expect(Array.from(back)).toEqual(Array.from(data));
  });

  kit.test("writes bytes that commands see unchanged", async () => {
    const dir = kit.dir("bytes-cmd");
    const data = binarySample();
    await kit.sandbox().writeBytes(`${dir}/all.bin`, data);
    const result = expectSuccess(
      kit,
      await kit.sandbox().execute(`wc -c < all.bin; od -An -tx1 -v all.bin | tr -d ' \\n'`, { cwd: dir }),
    );
    expect(result.stdout).toBe(`${data.byteLength}\n${Buffer.from(data).toString("hex")}`);
  });

  kit.test("reads bytes a command wrote", async () => {
    const dir = kit.dir("bytes-from-cmd");
    expectSuccess(
      kit,
      await kit
        .sandbox()
        .execute(`mkdir -p ${shellQuote(dir)} && printf '\\000\\001\\377abc' > ${shellQuote(`${dir}/b.bin`)}`),
    );
    expect(Array.from(await kit.sandbox().readBytes(`${dir}/b.bin`))).toEqual([0, 1, 255, 97, 98, 99]);
  });

  kit.test(
    "round-trips a 5 MiB binary file",
    async () => {
      const path = `${kit.dir("big-bytes")}/big.bin`;
      const data = new Uint8Array(5 * 1024 * 1024);
      for (let i = 0; i < data.length; i++) data[i] = (i * 2654435761) >>> 24;
      await kit.sandbox().writeBytes(path, data);
      const back = await kit.sandbox().readBytes(path);
      expect(back.byteLength).toBe(data.byteLength);
      expect(Buffer.from(back).equals(Buffer.from(data))).toBe(true);
    },
    60_000,
  );

  kit.test("refuses to read a binary file as text", async () => {
    const path = `${kit.dir("binary-text")}/image.bin`;
    await kit.sandbox().writeBytes(path, binarySample());
    const err = await expectSandboxError(kit, kit.sandbox().readFile(path), "INVALID_ARGUMENT");
    expect(err.message.includes(path) || err.path === path).toBe(true);
  });

  kit.test("writes to uploads and outputs", async () => {
    for (const root of [UPLOADS_PATH, OUTPUTS_PATH]) {
      const path = `${root}/kit-${Date.now()}-${Math.random().toString(36).slice(2)}.txt`;
      await kit.sandbox().writeFile(path, root);
      expect(await kit.sandbox().readFile(path)).toBe(root);
    }
  });

  kit.test("lands every concurrent write to distinct files", async () => {
    const dir = kit.dir("concurrent-distinct");
    await Promise.all(
      Array.from({ length: 40 }, (_, i) => kit.sandbox().writeFile(`${dir}/f${i}.txt`, `content ${i}`)),
    );
    const back = await Promise.all(Array.from({ length: 40 }, (_, i) => kit.sandbox().readFile(`${dir}/f${i}.txt`)));
    expect(back).toEqual(Array.from({ length: 40 }, (_, i) => `content ${i}`));
  });

  kit.test(
    "leaves one whole version after concurrent writes to the same file",
    async () => {
      const path = `${kit.dir("concurrent-same")}/same.txt`;
      const versions = Array.from({ length: 20 }, (_, i) => `${String(i).padStart(2, "0")}:`.repeat(20_000 + i * 97));
      await Promise.all(versions.map((v) => kit.sandbox().writeFile(path, v)));
      const final = await kit.sandbox().readFile(path);
      expect(versions.includes(final)).toBe(true);
    },
    60_000,
  );

  kit.test("keeps every line of concurrent appends", async () => {
    const path = `${kit.dir("concurrent-append")}/log.txt`;
    await kit.sandbox().writeFile(path, "");
    const lines = Array.from({ length: 30 }, (_, i) => `line ${i} ${"x".repeat(i * 50)}\n`);
    await Promise.all(lines.map((l) => kit.sandbox().writeFile(path, l, { append: true })));
    const final = await kit.sandbox().readFile(path);
    expect(final.split(/(?<=\n)/).sort()).toEqual([...lines].sort());
  });
}
