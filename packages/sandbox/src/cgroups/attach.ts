/** The `beforeStart` hook runners pass to `runProcessTree` to place a command in its sandbox's cgroup. */
import { SandboxError } from "../errors.js";
import type { CommandCgroup } from "./cgroup-types.js";

/**
 * A `beforeStart` hook attaching the gated child to `cgroup`. A refusal
 * becomes `UNAVAILABLE`: the command must not run outside its bounds.
 *
 * @param cgroup - The sandbox's cgroup.
 * @returns The hook.
 */
export function attachTo(cgroup: CommandCgroup): (pid: number) => Promise<void> {
  return async (pid) => {
    try {
      await cgroup.attach(pid);
    } catch (err) {
      if (SandboxError.isInstance(err)) throw err;
      throw new SandboxError("UNAVAILABLE", "Could not place the command in the sandbox's cgroup", { cause: err });
    }
  };
}
