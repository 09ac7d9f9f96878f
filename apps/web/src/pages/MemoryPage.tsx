/**
 * Memory: what the agent remembers about the signed-in user (DeerFlow's
 * `/api/memory`): the summaries, the facts with their category and
 * confidence, a form to add a fact, inline edit and delete, export as a JSON
 * file and import of one, and clearing everything. The user is the one the
 * API key authenticates; the page never names a user.
 */
import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from "react";
import { TableHead } from "../components/TableHead";
import { apiJson, errorText } from "../lib/api";

interface Section {
  readonly summary: string;
  readonly updatedAt?: string;
}

interface Fact {
  readonly id: string;
  readonly content: string;
  readonly category: string;
  readonly confidence: number;
  readonly source: string;
  readonly createdAt: string;
}

interface MemoryDoc {
  readonly version: string;
  readonly lastUpdated: string;
  readonly user: Record<string, Section>;
  readonly history: Record<string, Section>;
  readonly facts: readonly Fact[];
}

const CATEGORIES = ["preference", "knowledge", "context", "behavior", "goal", "correction"] as const;

const SECTIONS: ReadonlyArray<[group: "user" | "history", key: string, label: string]> = [
  ["user", "workContext", "Work"],
  ["user", "personalContext", "Personal"],
  ["user", "topOfMind", "Current focus"],
  ["history", "recentMonths", "Recent months"],
  ["history", "earlierContext", "Earlier"],
  ["history", "longTermBackground", "Background"],
];

function FactForm(props: {
  readonly initial?: Fact;
  readonly busy: boolean;
  readonly submitLabel: string;
  readonly onSubmit: (fact: { content: string; category: string; confidence: number }) => void;
  readonly onCancel?: () => void;
}) {
  const id = useId();
  const [content, setContent] = useState(props.initial?.content ?? "");
  const [category, setCategory] = useState(props.initial?.category ?? "context");
  const [confidence, setConfidence] = useState(String(props.initial?.confidence ?? 0.8));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    props.onSubmit({ content, category, confidence: Number(confidence) });
  };
  return (
    <form className="inline-form memory-fact-form" onSubmit={submit} data-testid="fact-form">
      <label htmlFor={`${id}-content`}>Fact</label>
      <input
        id={`${id}-content`}
        value={content}
        onChange={(e) => setContent(e.target.value)}
        required
        className="memory-fact-input"
      />
      <label htmlFor={`${id}-category`}>Category</label>
      <select id={`${id}-category`} value={category} onChange={(e) => setCategory(e.target.value)}>
        {CATEGORIES.map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </select>
      <label htmlFor={`${id}-confidence`}>Confidence</label>
      <input
        id={`${id}-confidence`}
        type="number"
        min={0}
        max={1}
        step={0.05}
        value={confidence}
        onChange={(e) => setConfidence(e.target.value)}
        required
      />
      <button type="submit" disabled={props.busy}>
        {props.submitLabel}
      </button>
      {props.onCancel !== undefined && (
        <button type="button" className="button-quiet" onClick={props.onCancel}>
          Cancel
        </button>
      )}
    </form>
  );
}

export function MemoryPage() {
  const [doc, setDoc] = useState<MemoryDoc | null>(null);
  const [problem, setProblem] = useState("");
  const [message, setMessage] = useState("");
  const [busy, setBusy] = useState(false);
  const [editing, setEditing] = useState<string | null>(null);
  const [confirmClear, setConfirmClear] = useState(false);
  const [exportUrl, setExportUrl] = useState<string | null>(null);
  const importRef = useRef<HTMLInputElement>(null);

  const load = useCallback(async () => {
    try {
      setDoc(await apiJson<MemoryDoc>("/memory"));
      setProblem("");
    } catch (err) {
      setProblem(`Could not load memory: ${errorText(err)}`);
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  useEffect(() => () => void (exportUrl !== null && URL.revokeObjectURL(exportUrl)), [exportUrl]);

  /** Runs a change; the server answers with the new document. */
  const change = async (work: () => Promise<MemoryDoc>, done: string) => {
    setBusy(true);
    setMessage("");
    setProblem("");
    try {
      setDoc(await work());
      setMessage(done);
      return true;
    } catch (err) {
      setProblem(errorText(err));
      return false;
    } finally {
      setBusy(false);
    }
  };

  const add = (fact: { content: string; category: string; confidence: number }) =>
    void change(() => apiJson<MemoryDoc>("/memory/facts", { method: "POST", json: fact }), "Fact added.");
  const save = (id: string, fact: { content: string; category: string; confidence: number }) =>
    void change(
      () => apiJson<MemoryDoc>(`/memory/facts/${encodeURIComponent(id)}`, { method: "PATCH", json: fact }),
      "Fact saved.",
    ).then((ok) => ok && setEditing(null));
  const remove = (fact: Fact) =>
    void change(
      () => apiJson<MemoryDoc>(`/memory/facts/${encodeURIComponent(fact.id)}`, { method: "DELETE" }),
      `Deleted “${fact.content}”.`,
    );
  const clear = () =>
    void change(() => apiJson<MemoryDoc>("/memory", { method: "DELETE" }), "Memory cleared.").then(() =>
      setConfirmClear(false),
    );

  const exportMemory = async () => {
    try {
      const exported = await apiJson<MemoryDoc>("/memory/export");
      const blob = new Blob([JSON.stringify(exported, null, 2)], { type: "application/json" });
      setExportUrl(URL.createObjectURL(blob));
      setMessage("Export ready: download memory.json.");
    } catch (err) {
      setProblem(`Could not export memory: ${errorText(err)}`);
    }
  };

  const importMemory = async (e: FormEvent) => {
    e.preventDefault();
    const file = importRef.current?.files?.[0];
    if (file === undefined) {
      setProblem("Choose a memory.json file to import.");
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(await file.text());
    } catch {
      setProblem(`${file.name} is not JSON.`);
      return;
    }
    await change(
      () => apiJson<MemoryDoc>("/memory/import", { method: "POST", json: parsed }),
      `Imported ${file.name}.`,
    );
  };

  const summaries = doc === null ? [] : SECTIONS.filter(([g, k]) => (doc[g][k]?.summary ?? "") !== "");

  return (
    <section className="page" aria-labelledby="page-title">
      <h1 id="page-title" tabIndex={-1}>
        Memory
      </h1>
      <p className="muted">
        What the agent remembers about you across conversations. It reads this at the start of each new conversation;
        after a conversation it may add what it learned.
      </p>
      <div aria-live="polite" className="status-line">
        {message !== "" && (
          <span className="success" data-testid="memory-message">
            {message}
          </span>
        )}
      </div>
      {problem !== "" && (
        <p role="alert" className="refusal" data-testid="memory-error">
          {problem}
        </p>
      )}
      {doc === null ? (
        <p className="muted">Loading…</p>
      ) : (
        <>
          <h2>Summaries</h2>
          {summaries.length === 0 ? (
            <p className="muted" data-testid="memory-no-summaries">
              No summaries yet.
            </p>
          ) : (
            <dl className="memory-summaries" data-testid="memory-summaries">
              {summaries.map(([g, k, label]) => (
                <div key={k}>
                  <dt>{label}</dt>
                  <dd>{doc[g][k]?.summary}</dd>
                </div>
              ))}
            </dl>
          )}

          <h2>Facts</h2>
          {doc.facts.length === 0 ? (
            <p data-testid="memory-no-facts">No facts remembered.</p>
          ) : (
            <table className="table" data-testid="memory-facts">
              <caption>{doc.facts.length === 1 ? "1 fact" : `${doc.facts.length} facts`}, most confident first</caption>
              <TableHead columns={["Fact", "Category", "Confidence", "Source", "Actions"]} />
              <tbody>
                {doc.facts.map((f) =>
                  editing === f.id ? (
                    <tr key={f.id} data-testid="memory-fact-editing">
                      <td colSpan={5}>
                        <FactForm
                          initial={f}
                          busy={busy}
                          submitLabel="Save"
                          onSubmit={(fact) => save(f.id, fact)}
                          onCancel={() => setEditing(null)}
                        />
                      </td>
                    </tr>
                  ) : (
                    <tr key={f.id} data-testid="memory-fact">
                      <th scope="row">{f.content}</th>
                      <td>
                        <span className="badge">{f.category}</span>
                      </td>
                      <td data-testid="memory-fact-confidence">{f.confidence.toFixed(2)}</td>
                      <td className="muted">{f.source}</td>
                      <td className="actions">
                        <button
                          type="button"
                          className="button-quiet"
                          onClick={() => setEditing(f.id)}
                          aria-label={`Edit “${f.content}”`}
                        >
                          Edit
                        </button>{" "}
                        <button
                          type="button"
                          className="button-danger"
                          disabled={busy}
                          onClick={() => remove(f)}
                          aria-label={`Delete “${f.content}”`}
                        >
                          Delete
                        </button>
                      </td>
                    </tr>
                  ),
                )}
              </tbody>
            </table>
          )}

          <div className="card">
            <h2>Add a fact</h2>
            <FactForm busy={busy} submitLabel="Add fact" onSubmit={add} />
          </div>

          <div className="card">
            <h2>Export and import</h2>
            <p className="field-row">
              <button type="button" onClick={() => void exportMemory()}>
                Export memory
              </button>
              {exportUrl !== null && (
                <a href={exportUrl} download="memory.json" data-testid="memory-export-link">
                  Download memory.json
                </a>
              )}
            </p>
            <form className="field-row" onSubmit={(e) => void importMemory(e)}>
              <label htmlFor="memory-import">Memory file (replaces your memory)</label>
              <input id="memory-import" ref={importRef} type="file" accept="application/json,.json" />
              <button type="submit" disabled={busy}>
                Import
              </button>
            </form>
          </div>

          <div className="card">
            <h2>Clear memory</h2>
            {confirmClear ? (
              <p className="field-row">
                <span>Forget every summary and fact?</span>
                <button type="button" className="button-danger" disabled={busy} onClick={clear}>
                  Yes, clear memory
                </button>
                <button type="button" className="button-quiet" onClick={() => setConfirmClear(false)}>
                  Keep it
                </button>
              </p>
            ) : (
              <button type="button" className="button-danger" onClick={() => setConfirmClear(true)}>
                Clear memory…
              </button>
            )}
          </div>
        </>
      )}
    </section>
  );
}
