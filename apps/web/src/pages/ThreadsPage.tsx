/**
 * Threads: search (title, metadata, id), rename (`PATCH metadata.title`),
 * delete (with a confirmation step), open in the chat. An administrator with
 * accounts on sees every user's threads, with an Owner column.
 */
import type { Thread } from "@langchain/langgraph-sdk";
import { useId, useMemo, useState, type FormEvent } from "react";
import { errorText, formatTime, sdkClient } from "../lib/api";
import { useOwnerNames } from "../lib/owners";
import { Link } from "../lib/router";
import { notifyThreadsChanged, threadPath, threadTitle, useThreadList } from "../lib/threads";
import { ErrorAlert } from "../components/ErrorAlert";
import { TableHead } from "../components/TableHead";

function matches(thread: Thread, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (q === "") return true;
  const haystack = [threadTitle(thread), thread.thread_id, JSON.stringify(thread.metadata ?? {})]
    .join(" ")
    .toLowerCase();
  return q.split(/\s+/).every((word) => haystack.includes(word));
}

function ThreadRow({
  thread,
  owner,
  onMessage,
}: {
  thread: Thread;
  /** The owner's name, for administrators (no column otherwise). */
  owner: string | null;
  onMessage: (text: string) => void;
}) {
  const [mode, setMode] = useState<"view" | "rename" | "confirm-delete">("view");
  const [name, setName] = useState(threadTitle(thread));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const inputId = useId();
  const title = threadTitle(thread);

  const rename = async (event: FormEvent) => {
    event.preventDefault();
    const next = name.trim();
    if (next === "") return;
    setBusy(true);
    try {
      await sdkClient().threads.update(thread.thread_id, { metadata: { title: next } });
      setMode("view");
      setError(null);
      onMessage(`Renamed to “${next}”.`);
      notifyThreadsChanged();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    setBusy(true);
    try {
      await sdkClient().threads.delete(thread.thread_id);
      onMessage(`Deleted “${title}”.`);
      notifyThreadsChanged();
    } catch (err) {
      setError(errorText(err));
      setBusy(false);
    }
  };

  return (
    <tr data-testid="thread-row" data-thread-id={thread.thread_id}>
      <th scope="row">
        {mode === "rename" ? (
          <form className="inline-form" onSubmit={rename}>
            <label htmlFor={inputId} className="visually-hidden">
              New title for {title}
            </label>
            <input id={inputId} value={name} onChange={(e) => setName(e.target.value)} autoFocus maxLength={200} />
            <button type="submit" disabled={busy || name.trim() === ""}>
              Save
            </button>
            <button type="button" className="button-quiet" onClick={() => setMode("view")}>
              Cancel
            </button>
          </form>
        ) : (
          <Link to={threadPath(thread)}>{title}</Link>
        )}
        <ErrorAlert error={error} />
      </th>
      {owner !== null && <td data-testid="thread-owner">{owner}</td>}
      <td>{thread.status}</td>
      <td>{formatTime(thread.updated_at)}</td>
      <td className="actions">
        {mode === "confirm-delete" ? (
          <span className="confirm">
            <span>Delete this thread and its runs?</span>{" "}
            <button type="button" className="button-danger" onClick={() => void remove()} disabled={busy} autoFocus>
              Yes, delete
            </button>{" "}
            <button type="button" className="button-quiet" onClick={() => setMode("view")}>
              Keep
            </button>
          </span>
        ) : (
          <>
            <button
              type="button"
              className="button-quiet"
              onClick={() => {
                setName(title);
                setMode("rename");
              }}
              aria-label={`Rename ${title}`}
            >
              Rename
            </button>{" "}
            <button
              type="button"
              className="button-quiet"
              onClick={() => setMode("confirm-delete")}
              aria-label={`Delete ${title}`}
            >
              Delete
            </button>
          </>
        )}
      </td>
    </tr>
  );
}

export function ThreadsPage() {
  const { threads, loading, error } = useThreadList();
  const [query, setQuery] = useState("");
  const [message, setMessage] = useState("");
  const shown = useMemo(() => threads.filter((t) => matches(t, query)), [threads, query]);
  const ownerOf = useOwnerNames();

  return (
    <section className="page" aria-labelledby="page-title">
      <div className="page-head">
        <h1 id="page-title" tabIndex={-1}>
          Threads
        </h1>
        <Link to="/chat" className="button button-small">
          New chat
        </Link>
      </div>
      <div className="search">
        <label htmlFor="thread-search">Search threads</label>
        <input
          id="thread-search"
          type="search"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          placeholder="Title, metadata or id"
        />
      </div>
      <p role="status" aria-live="polite" className="status-line">
        {message !== ""
          ? message
          : loading
            ? "Loading threads…"
            : `${shown.length} of ${threads.length} thread${threads.length === 1 ? "" : "s"}`}
      </p>
      {error !== null && <p role="alert">Could not load threads: {error}</p>}
      {shown.length > 0 && (
        <table className="table" data-testid="threads-table">
          <caption className="visually-hidden">Threads, most recently updated first</caption>
          <TableHead columns={["Title", ...(ownerOf === null ? [] : ["Owner"]), "Status", "Updated", "Actions"]} />
          <tbody>
            {shown.map((t) => (
              <ThreadRow key={t.thread_id} thread={t} owner={ownerOf?.(t) ?? null} onMessage={setMessage} />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
