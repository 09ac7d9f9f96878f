/**
 * Files of a thread: its uploads and the agent's outputs (artifacts), upload
 * more, download any of them.
 */
import { useCallback, useEffect, useRef, useState, type FormEvent } from "react";
import { FileLink } from "../components/FileLink";
import { apiJson, errorText, formatBytes, formatTime, sdkClient } from "../lib/api";
import { navigate } from "../lib/router";
import { lastThreadId, notifyThreadsChanged, threadTitle, useThreadList } from "../lib/threads";
import type { WireFileInfo, WireThreadFileListing, WireUploadLimits, WireUploadResult } from "@deerflow/gateway";
import { TableHead } from "../components/TableHead";

function FileTable({ files, caption, testId }: { files: readonly WireFileInfo[]; caption: string; testId: string }) {
  if (files.length === 0) return <p className="muted">None yet.</p>;
  return (
    <table className="table" data-testid={testId}>
      <caption className="visually-hidden">{caption}</caption>
      <TableHead columns={["Name", "Path", "Size", "Modified", "Download"]} />
      <tbody>
        {files.map((f) => (
          <tr key={f.path}>
            <th scope="row">{f.filename}</th>
            <td>
              <code>{f.virtual_path}</code>
            </td>
            <td>{formatBytes(f.size)}</td>
            <td>{formatTime(f.modified)}</td>
            <td>
              <FileLink url={f.artifact_url} name={f.filename} download label="Download" />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The gateway's message, plus the files stored under another name than the one chosen. */
function uploadSummary(result: WireUploadResult): string {
  const renamed = result.files
    .filter((f) => f.original_filename !== undefined)
    .map((f) => `${f.original_filename} stored as ${f.filename}`);
  return renamed.length === 0 ? result.message : `${result.message}; ${renamed.join(", ")}`;
}

export function FilesPage({ threadId }: { threadId: string | null }) {
  const { threads, loading } = useThreadList();
  const [files, setFiles] = useState<WireThreadFileListing | null>(null);
  const [limits, setLimits] = useState<WireUploadLimits | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState("");
  const [busy, setBusy] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);

  // No thread in the URL: the last chat thread, else the most recent one.
  useEffect(() => {
    if (threadId !== null || loading) return;
    const last = lastThreadId();
    const pick = threads.find((t) => t.thread_id === last)?.thread_id ?? threads[0]?.thread_id;
    if (pick !== undefined) navigate(`/files/${encodeURIComponent(pick)}`, { replace: true });
  }, [threadId, threads, loading]);

  const load = useCallback(async () => {
    if (threadId === null) return;
    try {
      setFiles(await apiJson<WireThreadFileListing>(`/threads/${encodeURIComponent(threadId)}/files`));
      setError(null);
    } catch (err) {
      setError(errorText(err));
    }
  }, [threadId]);

  useEffect(() => {
    setFiles(null);
    void load();
  }, [load]);

  // Shown before choosing files, so a refused upload is no surprise; a failure only hides the line.
  useEffect(() => {
    if (threadId === null) return;
    apiJson<WireUploadLimits>(`/threads/${encodeURIComponent(threadId)}/uploads/limits`).then(setLimits, () =>
      setLimits(null),
    );
  }, [threadId]);

  const upload = async (event: FormEvent) => {
    event.preventDefault();
    const chosen = inputRef.current?.files;
    if (threadId === null || chosen === null || chosen === undefined || chosen.length === 0) {
      setStatus("Choose one or more files first.");
      return;
    }
    const form = new FormData();
    for (const file of Array.from(chosen)) form.append("files", file, file.name);
    setBusy(true);
    setStatus("Uploading…");
    try {
      const res = await apiJson<WireUploadResult>(`/threads/${encodeURIComponent(threadId)}/uploads`, {
        method: "POST",
        body: form,
      });
      setStatus(uploadSummary(res));
      if (inputRef.current !== null) inputRef.current.value = "";
      await load();
    } catch (err) {
      setStatus(`Upload failed: ${errorText(err)}`);
    } finally {
      setBusy(false);
    }
  };

  const createThread = async () => {
    const thread = await sdkClient().threads.create({ metadata: { title: "Files" } });
    notifyThreadsChanged();
    navigate(`/files/${encodeURIComponent(thread.thread_id)}`);
  };

  const current = threads.find((t) => t.thread_id === threadId);

  return (
    <section className="page" aria-labelledby="page-title">
      <div className="page-head">
        <h1 id="page-title" tabIndex={-1}>
          Files
        </h1>
      </div>
      <div className="field-row">
        <label htmlFor="files-thread">Thread</label>
        <select
          id="files-thread"
          value={threadId ?? ""}
          onChange={(e) => navigate(`/files/${encodeURIComponent(e.target.value)}`)}
        >
          {threadId === null && <option value="">Choose a thread</option>}
          {threadId !== null && current === undefined && <option value={threadId}>{threadId}</option>}
          {threads.map((t) => (
            <option key={t.thread_id} value={t.thread_id}>
              {threadTitle(t)}
            </option>
          ))}
        </select>
      </div>
      {threadId === null && !loading && threads.length === 0 && (
        <p>
          No threads yet. Start a chat, or{" "}
          <button type="button" className="button-link" onClick={() => void createThread()}>
            create an empty thread
          </button>{" "}
          to upload files into.
        </p>
      )}
      {error !== null && <p role="alert">Could not list files: {error}</p>}
      {threadId !== null && (
        <>
          <form className="card upload-form" onSubmit={(e) => void upload(e)}>
            <h2>Upload files</h2>
            <p className="muted">
              Uploads land in /mnt/user-data/uploads of this thread, where the agent can read them.
            </p>
            {limits !== null && (
              <p className="muted" data-testid="upload-limits">
                Up to {limits.max_files} files per upload, {formatBytes(limits.max_file_size)} each,{" "}
                {formatBytes(limits.max_total_size)} in total.
              </p>
            )}
            <label htmlFor="files-upload">Files to upload</label>
            <input id="files-upload" ref={inputRef} type="file" multiple />
            <button type="submit" disabled={busy}>
              Upload
            </button>
          </form>
          <p role="status" aria-live="polite" className="status-line" data-testid="files-status">
            {status}
          </p>
          <h2>Uploads</h2>
          {files === null ? (
            <p className="muted">Loading…</p>
          ) : (
            <FileTable files={files.uploads} caption="Uploaded files" testId="uploads-table" />
          )}
          <h2>Outputs</h2>
          {files === null ? (
            <p className="muted">Loading…</p>
          ) : (
            <FileTable
              files={files.outputs}
              caption="Files the agent wrote to /mnt/user-data/outputs"
              testId="outputs-table"
            />
          )}
        </>
      )}
    </section>
  );
}
