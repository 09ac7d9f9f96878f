import { describe, expect, it } from "vitest";
import { OutputCapture, truncationNotice, utf8BoundaryLength } from "./output-capture.js";

const bytes = (...values: number[]): Uint8Array => Uint8Array.from(values);

describe("truncationNotice", () => {
  it("is DeerFlow's notice with its leading newline", () => {
    expect(truncationNotice(10, 25)).toBe(
      "\n... [output truncated after 10 of 25 bytes; remaining output discarded] ...",
    );
  });
});

describe("utf8BoundaryLength", () => {
  it("keeps complete text", () => {
    expect(utf8BoundaryLength(Buffer.from("aé€😀"))).toBe(Buffer.byteLength("aé€😀"));
  });

  it.each([1, 2, 3])("drops a 4-byte character cut after %i bytes", (cut) => {
    const emoji = Buffer.from("😀");
    const data = Buffer.concat([Buffer.from("ab"), emoji.subarray(0, cut)]);
    expect(utf8BoundaryLength(data)).toBe(2);
  });

  it("drops a 2-byte character cut in half", () => {
    expect(utf8BoundaryLength(bytes(0x61, 0xc3))).toBe(1);
  });

  it("leaves stray continuation bytes for the decoder", () => {
    expect(utf8BoundaryLength(bytes(0x61, 0x80, 0x80, 0x80, 0x80))).toBe(5);
  });
});

describe("OutputCapture", () => {
  it("keeps everything under the cap", () => {
    const c = new OutputCapture(100);
    c.write(Buffer.from("hello "));
    c.write(Buffer.from("world"));
    expect(c.text()).toBe("hello world");
    expect(c.truncated).toBe(false);
  });

  it("keeps exactly the cap without a notice when the output fits", () => {
    const c = new OutputCapture(5);
    c.write(Buffer.from("12345"));
    expect(c.text()).toBe("12345");
  });

  it("counts discarded bytes and appends the exact notice", () => {
    const c = new OutputCapture(4);
    c.write(Buffer.from("abc"));
    c.write(Buffer.from("defgh"));
    c.write(Buffer.from("ij"));
    expect(c.text()).toBe("abcd\n... [output truncated after 4 of 10 bytes; remaining output discarded] ...");
    expect(c.totalBytes).toBe(10);
  });

  it("never retains more than the cap however much arrives", () => {
    const c = new OutputCapture(1000);
    const chunk = Buffer.alloc(64 * 1024, 0x79);
    for (let i = 0; i < 200; i += 1) c.write(chunk);
    expect(c.retainedBytes).toBe(1000);
    expect(c.totalBytes).toBe(200 * 64 * 1024);
  });

  it("does not split a multi-byte character at the cap", () => {
    const c = new OutputCapture(4);
    c.write(Buffer.from("abcé!")); // é is 2 bytes: the cap falls inside it
    const r = c.result();
    expect(r.text).toBe("abc");
    expect(r.keptBytes).toBe(3);
    expect(c.text()).toBe("abc\n... [output truncated after 3 of 6 bytes; remaining output discarded] ...");
  });

  it("replaces invalid UTF-8 with U+FFFD", () => {
    const c = new OutputCapture(100);
    c.write(bytes(0x61, 0xff, 0xfe, 0x62));
    expect(c.text()).toBe("a\uFFFD\uFFFDb");
  });

  it("keeps binary output with NUL bytes as text", () => {
    const c = new OutputCapture(100);
    c.write(bytes(0x00, 0x01, 0x41, 0x00, 0x80));
    expect(c.text()).toBe("\u0000\u0001A\u0000\uFFFD");
  });

  it("replaces an incomplete character at the real end of the stream", () => {
    const c = new OutputCapture(100);
    c.write(bytes(0x61, 0xe2, 0x82));
    expect(c.text()).toBe("a\uFFFD");
  });

  it("keeps a leading byte-order mark", () => {
    const c = new OutputCapture(100);
    c.write(Buffer.from("\uFEFFx"));
    expect(c.text()).toBe("\uFEFFx");
  });

  it("with a cap of 0 keeps nothing but still counts", () => {
    const c = new OutputCapture(0);
    c.write(Buffer.from("abc"));
    expect(c.text()).toBe("\n... [output truncated after 0 of 3 bytes; remaining output discarded] ...");
  });

  it("rejects a negative cap", () => {
    expect(() => new OutputCapture(-1)).toThrow(RangeError);
  });

  it("counts bytes dropped upstream in the total and the notice", () => {
    const c = new OutputCapture(4);
    c.write(Buffer.from("abcd"));
    expect(c.truncated).toBe(false);
    c.countDiscarded(96);
    expect(c).toMatchObject({ totalBytes: 100, retainedBytes: 4, truncated: true });
    expect(c.text()).toBe("abcd\n... [output truncated after 4 of 100 bytes; remaining output discarded] ...");
  });

  it("refuses a negative or fractional discarded count", () => {
    const c = new OutputCapture(4);
    expect(() => c.countDiscarded(-1)).toThrow(RangeError);
    expect(() => c.countDiscarded(0.5)).toThrow(RangeError);
  });
});
