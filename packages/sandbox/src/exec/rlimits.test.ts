import { describe, expect, it } from "vitest";
import { parseHardLimits, prlimitArgs } from "./rlimits.js";

const SAMPLE = `Limit                     Soft Limit           Hard Limit           Units
Max cpu time              unlimited            unlimited            seconds
Max file size             unlimited            unlimited            bytes
Max data size             unlimited            unlimited            bytes
Max processes             96365                96365                processes
Max open files            1024                 4096                 files
`;

describe("parseHardLimits", () => {
  it("reads the hard column, unlimited as Infinity", () => {
    expect(parseHardLimits(SAMPLE)).toEqual({
      cpuSeconds: Number.POSITIVE_INFINITY,
      fileSizeBytes: Number.POSITIVE_INFINITY,
      memoryBytes: Number.POSITIVE_INFINITY,
      processes: 96365,
      openFiles: 4096,
    });
  });
});

describe("prlimitArgs", () => {
  const hardLimits = parseHardLimits(SAMPLE);

  it("sets soft and hard to the same value", () => {
    expect(
      prlimitArgs(
        { cpuSeconds: 5, memoryBytes: 1024, fileSizeBytes: 2048, openFiles: 64, processes: 32 },
        { hardLimits },
      ),
    ).toEqual(["--cpu=5:5", "--data=1024:1024", "--fsize=2048:2048", "--nofile=64:64", "--nproc=32:32"]);
  });

  it("clamps to the current hard limit instead of failing", () => {
    expect(prlimitArgs({ openFiles: 100_000 }, { hardLimits })).toEqual(["--nofile=4096:4096"]);
  });

  it("leaves out the process limit when asked to", () => {
    expect(prlimitArgs({ processes: 10, cpuSeconds: 1 }, { processes: false, hardLimits })).toEqual(["--cpu=1:1"]);
  });

  it("ignores tmpBytes and unset limits", () => {
    expect(prlimitArgs({ tmpBytes: 1 << 20 }, { hardLimits })).toEqual([]);
  });

  it.each([-1, 1.5, Number.NaN])("rejects the limit %s", (value) => {
    expect(() => prlimitArgs({ cpuSeconds: value }, { hardLimits })).toThrowError(
      expect.objectContaining({ code: "INVALID_ARGUMENT" }),
    );
  });
});
