import { createSandboxTools } from "@deerflow/sandbox";
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { MemorySaver } from "@langchain/langgraph";
import { createAgent } from "langchain";
import { describe, expect, it } from "vitest";
import { localProvider } from "../../../test/support/fixtures.js";
import { ThreadSandboxes } from "../../sandbox/thread-sandboxes.js";
import { createReadBeforeWriteMiddleware, READ_MARK_KEY, readBeforeWriteBlockedText } from "../../index.js";

const FILE = "/mnt/user-data/workspace/report.md";
type Call = { name: string; args: Record<string, unknown> };

/** An agent with the real sandbox tools behind the gate; each `turn` scripts one run of tool calls. */
async function setup() {
  const sessions = new ThreadSandboxes(await localProvider());
  const scope = { configurable: { thread_id: "t1" } };
  const sandbox = await sessions.sandboxFor(scope);
  let n = 0;
  // One model and one agent for every run: the fake model numbers its messages, so a second model would reuse ids.
  const model = fakeModel();
  const agent = createAgent({
    model,
    tools: [...createSandboxTools({ getSandbox: (config) => sessions.sandboxFor(config ?? {}) })],
    middleware: [createReadBeforeWriteMiddleware({ getSandbox: (s) => sessions.sandboxFor(s) })],
    checkpointer: new MemorySaver(),
  });
  const turn = async (...calls: Call[]): Promise<ToolMessage[]> => {
    for (const c of calls) model.respondWithTools([{ ...c, id: `call_${n++}` }]);
    model.respond(new AIMessage("done"));
    const before = ((await agent.graph.getState(scope)).values as { messages?: BaseMessage[] }).messages?.length ?? 0;
    const out = await agent.invoke({ messages: [new HumanMessage("go")] }, scope);
    return out.messages.slice(before).filter((m): m is ToolMessage => ToolMessage.isInstance(m));
  };
  return { sandbox, turn };
}

describe("ReadBeforeWriteMiddleware", () => {
  it("blocks overwriting an existing file that was never read, with DeerFlow's text, and leaves it untouched", async () => {
    const { sandbox, turn } = await setup();
    await sandbox.writeFile(FILE, "# Report\n");
    const [result] = await turn({ name: "write_file", args: { path: FILE, content: "new" } });
    expect(result?.status).toBe("error");
    expect(result?.content).toBe(readBeforeWriteBlockedText("write_file", FILE));
    expect(result?.content).toBe(
      `Error: write_file blocked — ${FILE} already exists and you have not read its current version. Any write invalidates earlier reads, so re-read before every modification. Call read_file on it (a ranged read of the relevant section is enough, e.g. the last ~30 lines before an append), check what is already there, then retry.`,
    );
    expect(await sandbox.readFile(FILE)).toBe("# Report\n");
  });

  it("blocks an append and a str_replace without a read too", async () => {
    const { sandbox, turn } = await setup();
    await sandbox.writeFile(FILE, "a\n");
    const results = await turn(
      { name: "write_file", args: { path: FILE, content: "b\n", append: true } },
      { name: "str_replace", args: { path: FILE, old_str: "a", new_str: "c" } },
    );
    expect(results.map((r) => r.content)).toEqual([
      readBeforeWriteBlockedText("write_file", FILE),
      readBeforeWriteBlockedText("str_replace", FILE),
    ]);
    expect(await sandbox.readFile(FILE)).toBe("a\n");
  });

  it("always allows writing a new file", async () => {
    const { sandbox, turn } = await setup();
    const [result] = await turn({ name: "write_file", args: { path: FILE, content: "fresh" } });
    expect(result?.content).toBe("OK");
    expect(await sandbox.readFile(FILE)).toBe("fresh");
  });

  it("lets a write through after a read, then demands a new read: any write voids earlier reads", async () => {
    const { sandbox, turn } = await setup();
    await sandbox.writeFile(FILE, "one\n");
    const results = await turn(
      { name: "read_file", args: { path: FILE } },
      { name: "str_replace", args: { path: FILE, old_str: "one", new_str: "two" } },
      { name: "write_file", args: { path: FILE, content: "two\n" } },
    );
    expect(results.map((r) => r.content)).toEqual(["one\n", "OK", readBeforeWriteBlockedText("write_file", FILE)]);
    expect(await sandbox.readFile(FILE)).toBe("two\n");
  });

  it("stamps the whole file's hash on a ranged read", async () => {
    const { sandbox, turn } = await setup();
    await sandbox.writeFile(FILE, "l1\nl2\nl3\n");
    const [read, write] = await turn(
      { name: "read_file", args: { path: FILE, start_line: 3, end_line: 3 } },
      { name: "write_file", args: { path: FILE, content: "l4\n", append: true } },
    );
    expect(read?.additional_kwargs[READ_MARK_KEY]).toMatchObject({
      path: FILE,
      hash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(write?.content).toBe("OK");
    expect(await sandbox.readFile(FILE)).toBe("l1\nl2\nl3\nl4\n");
  });

  it("blocks a write when the file changed after the read (stale mark)", async () => {
    const { sandbox, turn } = await setup();
    await sandbox.writeFile(FILE, "v1");
    await turn({ name: "read_file", args: { path: FILE } });
    await sandbox.writeFile(FILE, "v2");
    const [result] = await turn({ name: "write_file", args: { path: FILE, content: "v3" } });
    expect(result?.content).toBe(readBeforeWriteBlockedText("write_file", FILE));
  });

  it("keeps the marks in the thread's state: a read in one run opens the write of the next", async () => {
    const { sandbox, turn } = await setup();
    await sandbox.writeFile(FILE, "kept");
    await turn({ name: "read_file", args: { path: `${FILE.replace("/report.md", "")}/./report.md` } });
    const [result] = await turn({ name: "write_file", args: { path: FILE, content: "changed" } });
    expect(result?.content).toBe("OK");
  });

  it("stamps no mark for a read that returned no content", async () => {
    const { sandbox, turn } = await setup();
    await sandbox.writeFile(FILE, "x\n");
    const [read, write] = await turn(
      { name: "read_file", args: { path: FILE, start_line: 9 } },
      { name: "write_file", args: { path: FILE, content: "y" } },
    );
    expect(read?.content).toBe("(start_line exceeds file length)");
    expect(read?.additional_kwargs[READ_MARK_KEY]).toBeUndefined();
    expect(write?.content).toBe(readBeforeWriteBlockedText("write_file", FILE));
  });
});
