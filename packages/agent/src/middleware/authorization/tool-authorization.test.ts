import { SubagentRegistry } from "@deerflow/subagents";
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { tool } from "@langchain/core/tools";
import { MemorySaver } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { createLeadAgent, staticModels, type LeadAgentOptions, type ToolAuthorizer } from "../../index.js";

const schema = { type: "object", properties: {} } as const;

/** Two tools; `secret` is what the `user` role may not use. */
function tools(ran: string[]) {
  return ["echo", "secret"].map((name) =>
    tool(
      async () => {
        ran.push(name);
        return `${name} ran`;
      },
      { name, description: `The ${name} tool.`, schema },
    ),
  );
}

/** DeerFlow's RBAC answers for a policy `user: tools: deny: [secret]`, `admin: {}`; other roles throw. */
const rbac: ToolAuthorizer = {
  name: "test-rbac",
  allowsTool: ({ role }, name) => {
    if (role !== "user" && role !== "admin") throw new Error(`Unknown role '${role}'`);
    if (role === "user" && name === "secret")
      return {
        allow: false,
        reasons: [{ code: "authz.denied", message: `role 'user' is denied 'secret' on resource 'tool'` }],
        policyId: "rbac:deny",
      };
    return { allow: true };
  },
};

const DENIED =
  "Guardrail denied: tool 'secret' was blocked (authz.denied). Reason: role 'user' is denied 'secret' on resource 'tool'. Choose an alternative approach.";

/** Records the tool names bound for each model call. */
function recordBoundTools(model: ReturnType<typeof fakeModel>): string[][] {
  const bound: string[][] = [];
  const bindTools = model.bindTools.bind(model);
  model.bindTools = ((ts: { name?: string }[], ...rest: unknown[]) => {
    bound.push(ts.map((t) => t.name ?? "").filter((n) => n !== ""));
    return (bindTools as (...a: unknown[]) => unknown)(ts, ...rest);
  }) as typeof model.bindTools;
  return bound;
}

async function run(
  middleware: NonNullable<LeadAgentOptions["middleware"]>,
  configurable: Record<string, unknown>,
  extra: Partial<LeadAgentOptions> = {},
  context?: Record<string, unknown>,
) {
  const ran: string[] = [];
  const model = fakeModel()
    .respondWithTools([{ name: "secret", id: "call_secret", args: {} }])
    .respond(new AIMessage("done"));
  const bound = recordBoundTools(model);
  const agent = await createLeadAgent({
    models: staticModels({ fake: model }),
    tools: tools(ran),
    checkpointer: new MemorySaver(),
    middleware,
    ...extra,
  });
  const out = await agent.invoke(
    { messages: [new HumanMessage("use the secret tool")] },
    {
      configurable: { thread_id: `t-${Math.random()}`, ...configurable },
      ...(context === undefined ? {} : { context }),
    },
  );
  const result = (out.messages as BaseMessage[]).find((m): m is ToolMessage => ToolMessage.isInstance(m));
  return { ran, bound, result };
}

describe("AuthorizationMiddleware", () => {
  it("never offers a denied tool to the model and refuses a call to it with DeerFlow's text", async () => {
    const { ran, bound, result } = await run({ authorization: { authorizer: rbac } }, { user_role: "user" });
    expect(bound[0]).toContain("echo");
    expect(bound[0]).not.toContain("secret");
    expect(ran).toEqual([]);
    expect(result?.status).toBe("error");
    expect(result?.content).toBe(DENIED);
  });

  it("lets a role with the right use the tool, and is absent without configuration", async () => {
    const admin = await run({ authorization: { authorizer: rbac } }, { user_role: "admin" });
    expect(admin.bound[0]).toEqual(expect.arrayContaining(["echo", "secret"]));
    expect(admin.ran).toEqual(["secret"]);
    const off = await run({}, { user_role: "user" });
    expect(off.ran).toEqual(["secret"]);
  });

  it("gives runs without a user_role the default role; never reads the role from context", async () => {
    const noRole = await run({ authorization: { authorizer: rbac, defaultRole: "user" } }, {});
    expect(noRole.result?.content).toBe(DENIED);
    // context.user_role is a client's claim: ignored.
    const forged = await run(
      { authorization: { authorizer: rbac, defaultRole: "user" } },
      {},
      {},
      { user_role: "admin" },
    );
    expect(forged.bound[0]).not.toContain("secret");
    expect(forged.ran).toEqual([]);
  });

  it("fails closed on an unknown role or a provider error, open when configured so", async () => {
    const unknown = await run({ authorization: { authorizer: rbac } }, { user_role: "intruder" });
    expect(unknown.bound[0]).toEqual([]);
    expect(unknown.ran).toEqual([]);
    expect(unknown.result?.content).toBe(
      "Guardrail denied: tool 'secret' was blocked (oap.evaluator_error). Reason: guardrail provider error (fail-closed). Choose an alternative approach.",
    );
    const garbage: ToolAuthorizer = { name: "garbage", allowsTool: () => ({}) as never };
    expect((await run({ authorization: { authorizer: garbage } }, { user_role: "user" })).ran).toEqual([]);
    const open = await run({ authorization: { authorizer: rbac, failClosed: false } }, { user_role: "intruder" });
    expect(open.bound[0]).toEqual(expect.arrayContaining(["echo", "secret"]));
    expect(open.ran).toEqual(["secret"]);
  });

  it("filters and refuses a subagent's tools by the lead's role", async () => {
    const ran: string[] = [];
    const model = fakeModel()
      .respondWithTools([
        {
          name: "task",
          id: "task_1",
          args: { description: "sub work", prompt: "use secret", subagent_type: "general-purpose" },
        },
      ])
      .respondWithTools([{ name: "secret", id: "sub_secret", args: {} }])
      .respond(new AIMessage("Could not."))
      .respond(new AIMessage("Done."));
    const bound = recordBoundTools(model);
    const agent = await createLeadAgent({
      models: staticModels({ fake: model }),
      tools: tools(ran),
      checkpointer: new MemorySaver(),
      subagents: { registry: new SubagentRegistry({ config: { timeoutMs: 60_000 } }) },
      middleware: { authorization: { authorizer: rbac } },
    });
    await agent.invoke(
      { messages: [new HumanMessage("delegate it")] },
      { configurable: { thread_id: "t-sub", run_id: "r-sub", user_role: "user" } },
    );
    expect(bound[0]).toContain("task");
    expect(bound[0]).not.toContain("secret");
    expect(bound[1]).toContain("echo");
    expect(bound[1]).not.toContain("secret");
    expect(ran).toEqual([]);
    const seen = ((model.calls[2]?.messages ?? []) as BaseMessage[]).filter((m): m is ToolMessage =>
      ToolMessage.isInstance(m),
    );
    expect(seen[0]?.content).toBe(DENIED);
  });
});

describe("AuthorizationMiddleware and the run's model", () => {
  /** `user` may run on `fast` only; admins on anything. */
  const models: ToolAuthorizer = {
    ...rbac,
    allowsModel: ({ role }, name) => ({ allow: role === "admin" || (role === "user" && name === "fast") }),
  };

  async function runOn(authorizer: ToolAuthorizer, userRole: string, modelName: string) {
    const big = fakeModel().respond(new AIMessage("from big"));
    const fast = fakeModel().respond(new AIMessage("from fast"));
    const agent = await createLeadAgent({
      models: staticModels({ big, fast }),
      checkpointer: new MemorySaver(),
      middleware: { authorization: { authorizer, modelNames: ["big", "fast"] } },
    });
    const out = await agent.invoke(
      { messages: [new HumanMessage("hi")] },
      // model_name as a custom agent's entry writes it (the gateway checks a request's own).
      { configurable: { thread_id: `m-${Math.random()}`, user_role: userRole }, context: { model_name: modelName } },
    );
    return (out.messages as BaseMessage[]).at(-1)?.content;
  }

  it("runs a model the role may not use on the first allowed one", async () => {
    expect(await runOn(models, "user", "big")).toBe("from fast");
    expect(await runOn(models, "admin", "big")).toBe("from big");
    expect(await runOn(models, "user", "fast")).toBe("from fast");
  });

  it("fails the run with MODEL_NOT_AUTHORIZED when the role may use no model", async () => {
    const none: ToolAuthorizer = { ...rbac, allowsModel: () => ({ allow: false }) };
    const err = await runOn(none, "user", "big").then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(String((err as Error).message)).toBe("No models are authorized for the current role.");
    // LangChain wraps a middleware's error; ours is at the end of the cause chain.
    let cause = err as { code?: string; cause?: unknown } | undefined;
    while (cause?.cause !== undefined) cause = cause.cause as typeof cause;
    expect(cause?.code).toBe("MODEL_NOT_AUTHORIZED");
  });
});
