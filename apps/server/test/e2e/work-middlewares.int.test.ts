/**
 * The "Work" middlewares (issue 14 §2) through the real server, a model on the
 * scripted OpenAI-compatible endpoint and the LangGraph SDK over a socket:
 *
 * 1. plan mode: a run with `is_plan_mode: true` is offered `write_todos`, and the
 *    `todos` it writes arrive in the `values` stream; a run without it is not offered the tool.
 * 2. title: after the first exchange, `title.model_name`'s model names the thread; the
 *    title is in the state and the thread's metadata (thread search finds it) and the
 *    title call never reaches the `messages-tuple` stream.
 * 3. uploads: a file uploaded through the thread's upload route and attached to the
 *    message as `additional_kwargs.files` is announced to the model in `<current_uploads>`.
 * 4. `uploads.auto_convert_documents`: PDF and DOCX uploads (built in the test) get a
 *    Markdown companion, described in the upload answer and named to the model.
 */
import type { RecordedRequest, ScriptedOpenAI, ScriptStep } from "@deerflow/agent/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LEAD_AGENT_ASSISTANT_ID } from "../../src/server/create-server.js";
import { docx, pdfWithPages } from "../support/documents.js";
import { lastUserText, messageText } from "../support/request-text.js";
import { startScriptedServer, type ScriptedServer } from "../support/scripted-server.js";
import type { TestServer } from "../support/server-harness.js";

const TITLE = "Essay Plan Session";
const todos = [
  { content: "Outline the essay", status: "in_progress" },
  { content: "Write the draft", status: "pending" },
];

/** Title requests get the title; a plan-mode run's first call writes todos; everything else answers text. */
function script(request: RecordedRequest): ScriptStep {
  const last = request.messages.at(-1) ?? {};
  if (messageText(last).startsWith("Generate a concise title")) return { text: TITLE };
  const answered = request.messages.some((m) => m["role"] === "tool");
  if (request.toolNames.includes("write_todos") && !answered)
    return { toolCalls: [{ name: "write_todos", args: { todos }, id: "call_todos" }] };
  return { text: "Done." };
}

describe("work middlewares through the server", () => {
  let server: ScriptedServer;
  let openai: ScriptedOpenAI;
  let t: TestServer;

  beforeAll(async () => {
    server = await startScriptedServer(
      script,
      "title:\n  model_name: main\n  max_words: 4\nuploads:\n  auto_convert_documents: true\n",
    );
    ({ openai, t } = server);
  }, 60_000);

  afterAll(() => server?.close());

  it("plan mode: todos stream in values; the title lands in state and thread metadata, not in the messages stream", async () => {
    const thread = await t.client.threads.create();
    const valueTodos: unknown[] = [];
    const streamedText: string[] = [];
    for await (const event of t.client.runs.stream(thread.thread_id, LEAD_AGENT_ASSISTANT_ID, {
      input: { messages: [{ type: "human", content: "Plan my essay on rivers" }] },
      context: { is_plan_mode: true },
      streamMode: ["values", "messages-tuple"],
    })) {
      if (event.event === "values") valueTodos.push((event.data as { todos?: unknown }).todos);
      if (event.event === "messages") streamedText.push(JSON.stringify(event.data));
      expect(event.event).not.toBe("error");
    }
    expect(valueTodos).toContainEqual(todos);
    expect(openai.requests.some((r) => r.toolNames.includes("write_todos"))).toBe(true);
    expect(streamedText.join("")).toContain("Done.");
    expect(streamedText.join("")).not.toContain(TITLE);

    const state = await t.client.threads.getState<{ title?: string; todos?: unknown }>(thread.thread_id);
    expect(state.values.title).toBe(TITLE);
    expect(state.values.todos).toEqual(todos);
    expect((await t.client.threads.get(thread.thread_id)).metadata?.["title"]).toBe(TITLE);
    const found = await t.client.threads.search({ metadata: { title: TITLE } });
    expect(found.map((th) => th.thread_id)).toContain(thread.thread_id);
  });

  it("outside plan mode the model is not offered write_todos", async () => {
    const before = openai.requests.length;
    const thread = await t.client.threads.create();
    await t.client.runs.wait(thread.thread_id, LEAD_AGENT_ASSISTANT_ID, {
      input: { messages: [{ type: "human", content: "hi" }] },
    });
    const agentCalls = openai.requests
      .slice(before)
      .filter((r) => !messageText(r.messages.at(-1) ?? {}).startsWith("Generate a concise title"));
    expect(agentCalls.length).toBeGreaterThan(0);
    for (const r of agentCalls) expect(r.toolNames).not.toContain("write_todos");
  });

  it("announces an uploaded file attached to the message", async () => {
    const thread = await t.client.threads.create();
    const form = new FormData();
    form.append("files", new Blob(["city,population\nOslo,700000\n"], { type: "text/csv" }), "cities.csv");
    const res = await fetch(`${t.url}/api/threads/${thread.thread_id}/uploads`, { method: "POST", body: form });
    expect(res.status).toBe(200);
    const uploaded = ((await res.json()) as { files: { filename: string; size: number; path: string }[] }).files;
    const before = openai.requests.length;
    await t.client.runs.wait(thread.thread_id, LEAD_AGENT_ASSISTANT_ID, {
      input: {
        messages: [
          {
            type: "human",
            content: "Which city is listed?",
            additional_kwargs: { files: uploaded.map((f) => ({ ...f, status: "uploaded" })) },
          },
        ],
      },
    });
    const sent = openai.requests.slice(before).find((r) => r.messages.some((m) => m["role"] === "user"));
    const user = sent === undefined ? "" : lastUserText(sent);
    expect(user).toContain(
      "<current_uploads>\nThe following files were uploaded in this message:\n\n- cities.csv (0.0 KB)\n  Path: /mnt/user-data/uploads/cities.csv\n",
    );
    expect(user.endsWith("</current_uploads>\n\nWhich city is listed?")).toBe(true);
  });

  it("converts PDF and DOCX uploads into Markdown companions the model is told about", async () => {
    const thread = await t.client.threads.create();
    const form = new FormData();
    form.append(
      "files",
      new Blob([pdfWithPages(["Rivers carry sediment"])], { type: "application/pdf" }),
      "rivers.pdf",
    );
    form.append(
      "files",
      new Blob([docx()], { type: "application/vnd.openxmlformats-officedocument.wordprocessingml.document" }),
      "report.docx",
    );
    const res = await fetch(`${t.url}/api/threads/${thread.thread_id}/uploads`, { method: "POST", body: form });
    expect(res.status).toBe(200);
    const files = ((await res.json()) as { files: Record<string, string>[] }).files;
    expect(files.map((f) => [f["filename"], f["markdown_file"], f["markdown_virtual_path"]])).toEqual([
      ["rivers.pdf", "rivers.md", "/mnt/user-data/uploads/rivers.md"],
      ["report.docx", "report.md", "/mnt/user-data/uploads/report.md"],
    ]);
    const md = await fetch(`${t.url}${files[1]?.["markdown_artifact_url"]}`);
    expect(await md.text()).toBe("# Quarterly Report\n\nRevenue grew **twelve percent**.\n");
    expect(await (await fetch(`${t.url}${files[0]?.["markdown_artifact_url"]}`)).text()).toBe(
      "## Page 1\n\nRivers carry sediment\n",
    );

    const before = openai.requests.length;
    await t.client.runs.wait(thread.thread_id, LEAD_AGENT_ASSISTANT_ID, {
      input: {
        messages: [
          {
            type: "human",
            content: "Summarise the documents",
            additional_kwargs: { files: files.map((f) => ({ ...f, status: "uploaded" })) },
          },
        ],
      },
    });
    const sent = openai.requests.slice(before).find((r) => r.messages.some((m) => m["role"] === "user"));
    const user = sent === undefined ? "" : lastUserText(sent);
    expect(user).toContain("- rivers.pdf (");
    expect(user).toContain(
      "  Path: /mnt/user-data/uploads/rivers.pdf\n  Generated Markdown: /mnt/user-data/uploads/rivers.md\n",
    );
    expect(user).toContain("  Generated Markdown: /mnt/user-data/uploads/report.md\n");
  });
});
