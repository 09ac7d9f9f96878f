/**
 * Uploads through the real server (DeerFlow §6), the LangGraph SDK and a model
 * on the scripted OpenAI-compatible endpoint, with `uploads.auto_convert_documents`:
 *
 * 1. `<current_uploads>` shows the outline of a converted document's Markdown
 *    companion (`L<line>: <heading>`) and a preview of a CSV's first lines;
 * 2. `DELETE /api/threads/:id/uploads/:filename` removes the document and its
 *    companion, and leaves the user's other files.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LEAD_AGENT_ASSISTANT_ID } from "../../src/server/create-server.js";
import { docx } from "../support/documents.js";
import { lastUserText } from "../support/request-text.js";
import { startScriptedServer, type ScriptedServer } from "../support/scripted-server.js";

describe("uploads: outline in <current_uploads>, delete with the companion", () => {
  let server: ScriptedServer;

  beforeAll(async () => {
    server = await startScriptedServer(() => ({ text: "Read." }), "uploads:\n  auto_convert_documents: true\n");
  }, 60_000);

  afterAll(() => server?.close());

  it("announces the companion's outline and a CSV preview, then deletes the document with its companion", async () => {
    const { t, openai } = server;
    const thread = await t.client.threads.create();
    const form = new FormData();
    form.append(
      "files",
      new Blob([docx()], { type: "application/vnd.openxmlformats-officedocument.wordprocessingml.document" }),
      "report.docx",
    );
    form.append(
      "files",
      new Blob(["city,population\nOslo,700000\nBergen,290000\n"], { type: "text/csv" }),
      "cities.csv",
    );
    const res = await fetch(`${t.url}/api/threads/${thread.thread_id}/uploads`, { method: "POST", body: form });
    expect(res.status).toBe(200);
    const files = ((await res.json()) as { files: Record<string, string>[] }).files;
    expect(files[0]?.["markdown_file"]).toBe("report.md");

    await t.client.runs.wait(thread.thread_id, LEAD_AGENT_ASSISTANT_ID, {
      input: {
        messages: [
          {
            type: "human",
            content: "What do these say?",
            additional_kwargs: { files: files.map((f) => ({ ...f, status: "uploaded" })) },
          },
        ],
      },
    });
    const user = lastUserText(openai.requests.at(-1)!);
    // The converted DOCX is "# Quarterly Report\n\nRevenue grew **twelve percent**.\n".
    expect(user).toContain(
      [
        "  Generated Markdown: /mnt/user-data/uploads/report.md",
        "  Outline of /mnt/user-data/uploads/report.md (line numbers for `read_file` start_line/end_line):",
        "    L1: # Quarterly Report",
      ].join("\n"),
    );
    expect(user).toContain(
      [
        "  Path: /mnt/user-data/uploads/cities.csv",
        "  Preview (first lines):",
        "    city,population",
        "    Oslo,700000",
        "    Bergen,290000",
      ].join("\n"),
    );

    const del = await fetch(`${t.url}/api/threads/${thread.thread_id}/uploads/report.docx`, { method: "DELETE" });
    expect(del.status).toBe(200);
    const list = (await (await fetch(`${t.url}/api/threads/${thread.thread_id}/uploads/list`)).json()) as {
      files: { filename: string }[];
    };
    expect(list.files.map((f) => f.filename)).toEqual(["cities.csv"]);
  });
});
