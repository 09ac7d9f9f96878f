import { describe, expect, it } from "vitest";
import type { Principal } from "../auth/principal.js";
import { GatewayError } from "../errors.js";
import { runUserIdOf } from "./run-identity.js";

const alice: Principal = { userId: "alice", admin: false, authenticated: true };

function refusal(body: Parameters<typeof runUserIdOf>[1]): unknown {
  try {
    runUserIdOf(alice, body);
  } catch (err) {
    return err;
  }
  return undefined;
}

describe("runUserIdOf", () => {
  it("is the caller's id whatever the body omits or repeats", () => {
    expect(runUserIdOf(alice, {})).toBe("alice");
    expect(runUserIdOf(alice, { config: null, context: null })).toBe("alice");
    expect(runUserIdOf(alice, { config: { configurable: { user_id: null } }, context: { user_id: null } })).toBe(
      "alice",
    );
    expect(runUserIdOf(alice, { config: { configurable: { user_id: "alice" } }, context: { user_id: "alice" } })).toBe(
      "alice",
    );
  });

  it.each([
    [{ config: { configurable: { user_id: "bob" } } }, "config.configurable.user_id"],
    [{ context: { user_id: "bob" } }, "context.user_id"],
    [{ config: { configurable: { user_id: "" } } }, "config.configurable.user_id"],
    [{ context: { user_id: 7 } }, "context.user_id"],
  ])("refuses %j with FORBIDDEN naming %s", (body, field) => {
    const err = refusal(body);
    expect(GatewayError.isInstance(err) && err.code).toBe("FORBIDDEN");
    expect((err as Error).message).toContain(field);
  });
});
