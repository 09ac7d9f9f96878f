import { describe, expect, it } from "vitest";
import { SandboxError } from "../errors.js";
import { cgroupBoundsFromLimits, cpuWeightToShares, hasCgroupBounds, PIDS_HEADROOM } from "./cgroup-bounds.js";

describe("cgroupBoundsFromLimits", () => {
  it("maps memory, processes (plus the wrappers' headroom) and CPU weight", () => {
    expect(
      cgroupBoundsFromLimits({ memoryBytes: 1 << 20, processes: 64, cpuWeight: 50, cpuSeconds: 9, diskBytes: 5 }),
    ).toEqual({
      memoryBytes: 1 << 20,
      pids: 64 + PIDS_HEADROOM,
      cpuWeight: 50,
    });
  });

  it("asks for nothing when no cgroup limit is set", () => {
    const bounds = cgroupBoundsFromLimits({ cpuSeconds: 9, fileSizeBytes: 10 });
    expect(bounds).toEqual({});
    expect(hasCgroupBounds(bounds)).toBe(false);
    expect(hasCgroupBounds({ pids: 1 })).toBe(true);
  });

  it.each([0, 10_001, 1.5])("refuses cpuWeight %s", (cpuWeight) => {
    let caught: unknown;
    try {
      cgroupBoundsFromLimits({ cpuWeight });
    } catch (err) {
      caught = err;
    }
    expect(SandboxError.isInstance(caught) && caught.code).toBe("INVALID_ARGUMENT");
  });
});

describe("cpuWeightToShares", () => {
  it("maps the v2 default to the v1 default and clamps to the kernel's range", () => {
    expect(cpuWeightToShares(100)).toBe(1024);
    expect(cpuWeightToShares(1)).toBe(10);
    expect(cpuWeightToShares(10_000)).toBe(102_400);
    expect(cpuWeightToShares(0)).toBe(2);
  });
});
