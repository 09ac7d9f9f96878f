/**
 * Files attached to the next message: each is uploaded into the thread's
 * `/mnt/user-data/uploads` as soon as it is chosen (the thread is created first
 * in a new chat), and the message then carries them in `additional_kwargs.files`
 * (`[{filename, size, path, status}]`, DeerFlow's shape), which the agent's
 * uploads middleware announces to the model.
 */
import type { WireFileInfo, WireUploadResult } from "@deerflow/gateway";
import { useRef, useState, type ChangeEvent } from "react";
import { apiJson, errorText, formatBytes } from "../lib/api";

/** What a message's `additional_kwargs.files` holds for each attached upload. */
export function messageFiles(files: readonly WireFileInfo[]): Record<string, unknown>[] {
  return files.map((f) => ({
    filename: f.filename,
    size: f.size,
    path: f.virtual_path,
    status: "uploaded",
    ...(f.markdown_virtual_path === undefined ? {} : { markdown_virtual_path: f.markdown_virtual_path }),
  }));
}

/** The composer's attach control and the list of attached files. */
export function ComposerAttachments({
  files,
  onChange,
  ensureThread,
  disabled,
}: {
  files: readonly WireFileInfo[];
  onChange: (files: WireFileInfo[]) => void;
  /** The thread to upload into (created when the chat is new). */
  ensureThread: () => Promise<string>;
  disabled?: boolean;
}) {
  const inputRef = useRef<HTMLInputElement>(null);
  const [status, setStatus] = useState("");

  const attach = async (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = [...(event.target.files ?? [])];
    if (chosen.length === 0) return;
    setStatus("Uploading…");
    try {
      const threadId = await ensureThread();
      const form = new FormData();
      for (const file of chosen) form.append("files", file, file.name);
      const res = await apiJson<WireUploadResult>(`/threads/${encodeURIComponent(threadId)}/uploads`, {
        method: "POST",
        body: form,
      });
      onChange([...files.filter((f) => !res.files.some((r) => r.filename === f.filename)), ...res.files]);
      setStatus(`Attached ${res.files.length} file(s).`);
    } catch (err) {
      setStatus(`Upload failed: ${errorText(err)}`);
    } finally {
      if (inputRef.current !== null) inputRef.current.value = "";
    }
  };

  return (
    <div className="attachments">
      <label htmlFor="composer-attach" className="button button-small button-quiet">
        Attach files
      </label>
      <input
        id="composer-attach"
        ref={inputRef}
        type="file"
        multiple
        className="visually-hidden"
        onChange={(e) => void attach(e)}
        disabled={disabled}
      />
      {files.length > 0 && (
        <ul className="attached" aria-label="Attached files" data-testid="attached-files">
          {files.map((f) => (
            <li key={f.filename}>
              {f.filename} <span className="muted">({formatBytes(f.size)})</span>{" "}
              <button
                type="button"
                className="button-quiet button-small"
                onClick={() => onChange(files.filter((x) => x.filename !== f.filename))}
                aria-label={`Remove ${f.filename}`}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <span className="muted" role="status" aria-live="polite">
        {status}
      </span>
    </div>
  );
}
