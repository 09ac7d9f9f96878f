import { skillContainerPath } from "@deerflow/skills";
import { describe, expect, it } from "vitest";
import { publicSkill } from "../../test/support/fixtures.js";
import { CUSTOM_AGENT_CONFIG_KEY } from "../run/run-options.js";
import { createDisabledSkillGuard, disabledSkillMessage, skillNotAvailableMessage } from "./skill-path-guard.js";

describe("createDisabledSkillGuard", () => {
  const skills = [publicSkill("alpha"), publicSkill("beta"), publicSkill("off", false)];
  const guard = createDisabledSkillGuard(async () => skills, "/mnt/skills");
  const file = (name: string) =>
    `${skillContainerPath(
      skills.find((s) => s.name === name)!,
      "/mnt/skills",
    )}/SKILL.md`;
  const run = (allowed?: string[]) => ({
    configurable: allowed === undefined ? {} : { [CUSTOM_AGENT_CONFIG_KEY]: { name: "a", skills: allowed } },
  });

  it("blocks a disabled skill's files in every run", async () => {
    expect(await guard(file("off"))).toBe(disabledSkillMessage("off"));
    expect(await guard(file("off"), run(["off"]))).toBe(disabledSkillMessage("off"));
  });

  it("blocks skills outside a custom agent's whitelist in that agent's runs only", async () => {
    expect(await guard(file("beta"), run(["alpha"]))).toBe(skillNotAvailableMessage("beta"));
    expect(await guard(file("alpha"), run(["alpha"]))).toBeNull();
    expect(await guard(file("alpha"), run([]))).toBe(skillNotAvailableMessage("alpha"));
    expect(await guard(file("beta"), run())).toBeNull();
    expect(await guard("/mnt/user-data/workspace/x", run([]))).toBeNull();
  });
});
