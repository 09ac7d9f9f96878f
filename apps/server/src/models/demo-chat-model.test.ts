import { createAskClarificationTool, createPresentFilesTool } from "@deerflow/agent";
import { createSandboxTools, type Sandbox } from "@deerflow/sandbox";
import {
  AIMessage,
  AIMessageChunk,
  HumanMessage,
  SystemMessage,
  ToolMessage,
  type BaseMessage,
} from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { describe, expect, it } from "vitest";
import { DEMO_LABEL, DEMO_MODEL_NAME, DemoChatModel, demoTokens } from "./index.js";

// The tools are only bound (their schemas are read), never invoked here.
const sandbox = {} as Sandbox;
const sandboxTools = createSandboxTools({ sandbox });
const taskTool = tool(async () => "", {
  name: "task",
  description: "Delegate",
  schema: {
    type: "object",
    properties: {
      description: { type: "string" },
      prompt: { type: "string" },
      subagent_type: { type: "string", enum: ["general-purpose", "bash"] },
    },
    required: ["description", "prompt", "subagent_type"],
  },
});
const allTools = [...sandboxTools, createPresentFilesTool(async () => sandbox), createAskClarificationTool(), taskTool];

const SKILLS_PROMPT = `<skill_system>
<available_skills>
    <skill>
        <name>deep-research</name>
        <description>Systematic multi-source research for questions. Use when the user asks to research. [built-in]</description>
        <location>/mnt/skills/public/deep-research/SKILL.md</location>
    </skill>
    <skill>
        <name>data-analysis</name>
        <description>Explores CSV and Excel data with statistics and charts. [built-in]</description>
        <location>/mnt/skills/public/data-analysis/SKILL.md</location>
    </skill>
</available_skills>
</skill_system>`;

async function respond(messages: BaseMessage[], tools = allTools): Promise<AIMessage> {
  return (await new DemoChatModel().bindTools(tools).invoke(messages)) as AIMessage;
}

function schemaOf(name: string): { required?: string[]; properties?: Record<string, unknown> } {
  const t = allTools.find((x) => x.name === name);
  return t?.schema as { required?: string[]; properties?: Record<string, unknown> };
}

function expectArgsFitSchema(call: { name: string; args: Record<string, unknown> }): void {
  const schema = schemaOf(call.name);
  for (const key of schema.required ?? []) expect(call.args).toHaveProperty(key);
  for (const key of Object.keys(call.args)) expect(Object.keys(schema.properties ?? {})).toContain(key);
}

describe("DemoChatModel", () => {
  it("labels plain answers as coming from the demo model", async () => {
    const out = await new DemoChatModel().invoke([new HumanMessage("Hello there")]);
    expect(out.content).toContain(DEMO_LABEL);
    expect(out.content).toContain('You said: "Hello there"');
    expect(out.response_metadata["model_name"]).toBe(DEMO_MODEL_NAME);
  });

  it("calls ls on the workspace with valid ids and schema-conforming arguments", async () => {
    const out = await respond([new HumanMessage("Please list my workspace")]);
    expect(out.tool_calls).toEqual([
      {
        id: expect.stringMatching(/^call_[0-9a-f]{16}_0$/),
        name: "ls",
        args: { description: "List the folder", path: "/mnt/user-data/workspace" },
        type: "tool_call",
      },
    ]);
    expectArgsFitSchema(out.tool_calls?.[0] as { name: string; args: Record<string, unknown> });
  });

  it("runs the command given in backticks, or an echo", async () => {
    const cmd = await respond([new HumanMessage("run `uname -a` please")]);
    expect(cmd.tool_calls?.[0]).toMatchObject({ name: "bash", args: { command: "uname -a" } });
    const echo = await respond([new HumanMessage("run something in the sandbox")]);
    expect(echo.tool_calls?.[0]?.args["command"]).toMatch(/^echo /);
  });

  it("reads a matching skill's SKILL.md first, from the prompt's available skills", async () => {
    const out = await respond([
      new SystemMessage(SKILLS_PROMPT),
      new HumanMessage("Research the history of the printing press"),
    ]);
    expect(out.tool_calls?.[0]).toMatchObject({
      name: "read_file",
      args: { path: "/mnt/skills/public/deep-research/SKILL.md" },
    });
    expectArgsFitSchema(out.tool_calls?.[0] as { name: string; args: Record<string, unknown> });
  });

  it("does not read a skill without the skills section", async () => {
    const out = await respond([new HumanMessage("Research the history of the printing press")]);
    expect(out.tool_calls ?? []).toEqual([]);
  });

  it("writes a deliverable to outputs, then presents it", async () => {
    const first = await respond([new HumanMessage("write notes.md with a summary")]);
    expect(first.tool_calls?.[0]).toMatchObject({
      name: "write_file",
      args: { path: "/mnt/user-data/outputs/notes.md" },
    });
    const toolMsg = new ToolMessage({
      content: "OK",
      tool_call_id: first.tool_calls?.[0]?.id ?? "",
      name: "write_file",
    });
    const second = await respond([new HumanMessage("write notes.md with a summary"), first, toolMsg]);
    expect(second.tool_calls?.[0]).toEqual(
      expect.objectContaining({ name: "present_files", args: { filepaths: ["/mnt/user-data/outputs/notes.md"] } }),
    );
    const presented = new ToolMessage({
      content: "Successfully presented files",
      tool_call_id: second.tool_calls?.[0]?.id ?? "",
      name: "present_files",
    });
    const final = await respond([new HumanMessage("write notes.md with a summary"), first, toolMsg, second, presented]);
    expect(final.tool_calls ?? []).toEqual([]);
    expect(final.content).toContain("- Wrote /mnt/user-data/outputs/notes.md.");
    expect(final.content).toContain("- Presented /mnt/user-data/outputs/notes.md to you.");
  });

  it("delegates one task per topic, in parallel, when task is bound", async () => {
    const out = await respond([new HumanMessage("Research solar power and wind power in parallel")]);
    expect(out.tool_calls?.map((c) => c.args["subagent_type"])).toEqual(["general-purpose", "general-purpose"]);
    expect(out.tool_calls?.map((c) => c.args["description"])).toEqual(["Research solar power", "Research wind power"]);
    for (const c of out.tool_calls ?? []) expectArgsFitSchema(c as { name: string; args: Record<string, unknown> });
    const withoutTask = await respond(
      [new HumanMessage("Research solar power and wind power in parallel")],
      [...sandboxTools],
    );
    expect(withoutTask.tool_calls ?? []).toEqual([]);
  });

  it("asks for clarification on a bare question mark, only when ask_clarification is bound", async () => {
    const out = await respond([new HumanMessage("?")]);
    expect(out.tool_calls?.[0]).toMatchObject({
      name: "ask_clarification",
      args: { clarification_type: "ambiguous_requirement" },
    });
    expect(out.tool_calls?.[0]?.args["options"]).toHaveLength(4);
    expectArgsFitSchema(out.tool_calls?.[0] as { name: string; args: Record<string, unknown> });
    const unbound = await respond([new HumanMessage("?")], [...sandboxTools]);
    expect(unbound.tool_calls ?? []).toEqual([]);
  });

  it("acts on the clarification answer", async () => {
    const ask = await respond([new HumanMessage("Deploy it?")]);
    const answer = new ToolMessage({
      content: "User's answer: list the outputs folder /mnt/user-data/outputs",
      tool_call_id: ask.tool_calls?.[0]?.id ?? "",
      name: "ask_clarification",
    });
    const next = await respond([new HumanMessage("Deploy it?"), ask, answer]);
    expect(next.tool_calls?.[0]).toMatchObject({ name: "ls", args: { path: "/mnt/user-data/outputs" } });
  });

  it("summarises tool results, including failures", async () => {
    const ai = new AIMessage({
      content: "",
      tool_calls: [{ id: "c1", name: "bash", args: { command: "cat /nope" }, type: "tool_call" }],
    });
    const result = new ToolMessage({
      content: "Error: Unsafe absolute paths in command: /nope",
      tool_call_id: "c1",
      name: "bash",
      status: "error",
    });
    const final = await respond([new HumanMessage("run `cat /nope`"), ai, result]);
    expect(final.content).toContain("- bash failed: Error: Unsafe absolute paths in command: /nope");
  });

  it("is deterministic: the same conversation gives the same message, ids included", async () => {
    const input = [new SystemMessage(SKILLS_PROMPT), new HumanMessage("Research wind and solar in parallel")];
    const a = await respond(input);
    const b = await respond(input);
    expect(a.id).toBe(b.id);
    expect(a.content).toBe(b.content);
    expect(a.tool_calls).toEqual(b.tool_calls);
  });

  it("streams the text word by word, then the tool calls", async () => {
    const chunks: AIMessageChunk[] = [];
    for await (const chunk of await new DemoChatModel().bindTools(allTools).stream([new HumanMessage("run `echo hi`")]))
      chunks.push(chunk);
    const text = "Let me run `echo hi` in the sandbox.";
    expect(chunks.slice(0, demoTokens(text).length).map((c) => c.content)).toEqual(demoTokens(text));
    const merged = chunks.reduce((acc, c) => acc.concat(c));
    expect(merged.content).toBe(text);
    expect(merged.tool_calls).toEqual([
      expect.objectContaining({ name: "bash", args: { description: "Run the requested command", command: "echo hi" } }),
    ]);
    expect(
      (merged as unknown as { usage_metadata?: { total_tokens: number } }).usage_metadata?.total_tokens,
    ).toBeGreaterThan(0);
    const invoked = (await new DemoChatModel()
      .bindTools(allTools)
      .invoke([new HumanMessage("run `echo hi`")])) as AIMessage;
    expect(invoked.tool_calls).toEqual(merged.tool_calls);
  });
});

describe("demoTokens", () => {
  it("keeps whitespace with the preceding word", () => {
    expect(demoTokens("Hello  big\nworld")).toEqual(["Hello  ", "big\n", "world"]);
    expect(demoTokens("")).toEqual([]);
  });
});
