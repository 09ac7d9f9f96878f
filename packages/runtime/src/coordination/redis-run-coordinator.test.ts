/**
 * `RedisRunCoordinator` option validation, and the reading of its lease script's
 * reply. Options are checked before any connection is made, so these need no Redis.
 */
import { Redis } from "ioredis";
import { describe, expect, it } from "vitest";
import { RedisRunCoordinator, leaseFromReply, type RedisRunCoordinatorOptions } from "./redis-run-coordinator.js";
import { RuntimeError } from "../errors.js";

function configError(options: RedisRunCoordinatorOptions): RuntimeError {
  try {
    new RedisRunCoordinator(options);
  } catch (err) {
    if (RuntimeError.isInstance(err)) return err;
    throw err;
  }
  throw new Error("expected the constructor to throw");
}

describe("RedisRunCoordinator options", () => {
  const url = "redis://127.0.0.1:1";

  it("rejects a lease under 1000 ms with CONFIG_INVALID naming the value", () => {
    for (const leaseMs of [999, 0, -1]) {
      const err = configError({ url, leaseMs });
      expect(err.code).toBe("CONFIG_INVALID");
      expect(err.message).toContain(`got ${leaseMs}`);
    }
  });

  it("rejects a fractional or non-numeric lease and a renewal interval not below the lease", () => {
    expect(configError({ url, leaseMs: 1500.5 }).message).toMatch(/leaseMs .* got 1500\.5/);
    expect(configError({ url, leaseMs: "30000" as unknown as number }).message).toMatch(/leaseMs .* got "30000"/);
    expect(configError({ url, leaseMs: 3000, renewIntervalMs: 3000 }).message).toMatch(/renewIntervalMs .* got 3000/);
    expect(configError({ url, renewIntervalMs: 0 }).code).toBe("CONFIG_INVALID");
  });

  it("requires exactly one of redis and url, and a non-empty instance id", () => {
    expect(configError({} as RedisRunCoordinatorOptions).message).toMatch(/exactly one of `redis`/);
    const client = new Redis({ lazyConnect: true });
    try {
      expect(configError({ redis: client, url } as unknown as RedisRunCoordinatorOptions).code).toBe("CONFIG_INVALID");
      expect(configError({ redis: client, instanceId: "" }).message).toMatch(/instanceId/);
    } finally {
      client.disconnect();
    }
    expect(configError({ url: "" }).message).toMatch(/url/);
  });
});

describe("RedisRunCoordinator lease replies", () => {
  it("reports a lease in its last millisecond (PTTL 0, the key still readable) as live with 1 ms left", () => {
    // ownerOf (a GET) still names the owner then; leaseOf must not call the lease gone before it.
    expect(leaseFromReply(["inst_a", 0])).toEqual({ ownerId: "inst_a", expiresInMs: 1 });
    expect(leaseFromReply(["inst_a", 2_500])).toEqual({ ownerId: "inst_a", expiresInMs: 2_500 });
  });

  it("is null without an owner, for a key without expiry, and for a malformed reply", () => {
    expect(leaseFromReply(null)).toBeNull();
    expect(leaseFromReply(["inst_a", -1])).toBeNull();
    expect(leaseFromReply(["inst_a", -2])).toBeNull();
    expect(leaseFromReply(["inst_a", "soon"])).toBeNull();
    expect(leaseFromReply([42, 100])).toBeNull();
  });
});
