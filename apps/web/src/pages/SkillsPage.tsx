/**
 * Skills: the catalog (category, enabled, description), enable/disable,
 * `.skill` upload with the install result or the exact refusal (scanner
 * findings included), and for custom skills: SKILL.md editing with inline
 * validation errors, the change history and rollback. Every skill's detail
 * lists the files of its directory and shows SKILL.md or a chosen file.
 */
import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from "react";
import { ApiError, apiFetch, apiJson, errorText, formatBytes, formatTime } from "../lib/api";
import { Link, navigate } from "../lib/router";
import { whileLive } from "../lib/whileLive";
import type { SkillResponse, WireCustomSkill, WireFinding, WireHistoryRecord, WireSkillFile } from "@deerflow/gateway";
import { EnableToggle } from "../components/EnableToggle";
import { TableHead } from "../components/TableHead";

/** The reason of a refusal and its scanner findings. */
function Refusal({ error, testId }: { error: ApiError | Error; testId: string }) {
  const findings = error instanceof ApiError ? error.findings : [];
  return (
    <div role="alert" className="refusal" data-testid={testId}>
      <p>
        <strong>{error instanceof ApiError ? `Refused (${error.status}):` : "Failed:"}</strong> {error.message}
      </p>
      {findings.length > 0 && <FindingsTable findings={findings} />}
    </div>
  );
}

function FindingsTable({ findings }: { findings: readonly WireFinding[] }) {
  return (
    <table className="table findings" data-testid="findings">
      <caption>Scanner findings</caption>
      <TableHead columns={["Rule", "Severity", "Where", "Finding"]} />
      <tbody>
        {findings.map((f, i) => (
          <tr key={`${f.rule_id}-${i}`}>
            <th scope="row">
              <code>{f.rule_id}</code>
            </th>
            <td>{f.severity}</td>
            <td>
              <code>
                {f.file}
                {f.line !== null && f.line !== undefined ? `:${f.line}` : ""}
              </code>
            </td>
            <td>
              {f.message}
              {f.remediation !== undefined && f.remediation !== "" && <span className="muted"> — {f.remediation}</span>}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function UploadSkill({ onInstalled }: { onInstalled: (name: string) => void }) {
  const inputRef = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ ok: string } | { error: ApiError | Error } | null>(null);

  const upload = async (event: FormEvent) => {
    event.preventDefault();
    const file = inputRef.current?.files?.[0];
    if (file === undefined) {
      setResult({ error: new Error("Choose a .skill file first.") });
      return;
    }
    const form = new FormData();
    form.append("file", file, file.name);
    setBusy(true);
    setResult(null);
    try {
      const res = await apiJson<{ skill_name: string; message: string }>("/skills/upload", {
        method: "POST",
        body: form,
      });
      setResult({ ok: res.message });
      if (inputRef.current !== null) inputRef.current.value = "";
      onInstalled(res.skill_name);
    } catch (err) {
      setResult({ error: err instanceof Error ? err : new Error(String(err)) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="card upload-form" onSubmit={(e) => void upload(e)} aria-labelledby="upload-title">
      <h2 id="upload-title">Install a skill</h2>
      <p className="muted">
        Upload a .skill archive. It is checked (archive safety, SKILL.md validation, security scan) before it is
        installed as a custom skill.
      </p>
      <label htmlFor="skill-file">.skill archive</label>
      <input id="skill-file" ref={inputRef} type="file" accept=".skill" />
      <button type="submit" disabled={busy}>
        {busy ? "Uploading…" : "Upload and install"}
      </button>
      <div aria-live="polite">
        {result !== null && "ok" in result && (
          <p className="success" data-testid="upload-result">
            {result.ok}
          </p>
        )}
      </div>
      {result !== null && "error" in result && <Refusal error={result.error} testId="upload-error" />}
    </form>
  );
}

/** `/skills/<name>/files/<path>` with each path segment encoded. */
function skillFileUrl(name: string, filePath: string): string {
  return `/skills/${encodeURIComponent(name)}/files/${filePath.split("/").map(encodeURIComponent).join("/")}`;
}

/** The files of a skill's directory; SKILL.md (or the chosen file) shown below. */
function SkillFiles({ name, revision }: { name: string; revision: number }) {
  const [files, setFiles] = useState<WireSkillFile[] | null>(null);
  const [truncated, setTruncated] = useState(false);
  const [current, setCurrent] = useState("SKILL.md");
  // What was fetched, for which file (the <pre> is busy until it matches `current`).
  const [shown, setShown] = useState<{ key: string; text: string } | null>(null);
  const [problem, setProblem] = useState("");
  const listId = useId();
  const contentId = useId();

  useEffect(() => {
    setFiles(null);
    return whileLive(
      apiJson<{ files: WireSkillFile[]; truncated?: boolean }>(`/skills/${encodeURIComponent(name)}/files`),
      (res) => {
        setFiles(res.files);
        setTruncated(res.truncated === true);
      },
      (err) => setProblem(`Could not list the files: ${errorText(err)}`),
    );
  }, [name, revision]);

  useEffect(() => {
    let live = true;
    setProblem("");
    apiFetch(skillFileUrl(name, current))
      .then((res) => res.text())
      .then(
        (text) => live && setShown({ key: `${name}/${current}`, text }),
        (err: unknown) => {
          if (!live) return;
          setShown({ key: `${name}/${current}`, text: "" });
          setProblem(`Could not show ${current}: ${errorText(err)}`);
        },
      );
    return () => {
      live = false;
    };
  }, [name, current, revision]);

  const text = shown !== null && shown.key === `${name}/${current}` ? shown.text : null;

  return (
    <div className="skill-files" data-testid="skill-files">
      <h3 id={listId}>Files</h3>
      {files === null ? (
        <p className="muted">Loading files…</p>
      ) : (
        <ul className="file-list" aria-labelledby={listId} data-testid="skill-file-list">
          {files.map((f) => (
            <li key={f.path}>
              <button
                type="button"
                className="button-small button-quiet"
                aria-current={f.path === current ? "true" : undefined}
                aria-controls={contentId}
                aria-label={`Show ${f.path}, ${formatBytes(f.size)}`}
                data-path={f.path}
                onClick={() => setCurrent(f.path)}
              >
                <code>{f.path}</code>
              </button>{" "}
              <span className="muted">{formatBytes(f.size)}</span>
            </li>
          ))}
        </ul>
      )}
      {truncated && <p className="muted">Only the first {files?.length ?? 0} files are listed.</p>}
      <h4>
        <code>{current}</code>
      </h4>
      <p role="status" aria-live="polite" className="status-line" data-testid="skill-file-status">
        {problem}
      </p>
      <pre
        id={contentId}
        className="code skill-file-content"
        tabIndex={0}
        role="region"
        aria-label={`Content of ${current}`}
        aria-busy={text === null}
        data-testid="skill-file-content"
        data-path={current}
      >
        {text ?? ""}
      </pre>
    </div>
  );
}

function SkillDetail({ skill, onChanged }: { skill: SkillResponse; onChanged: () => void }) {
  const [content, setContent] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [history, setHistory] = useState<WireHistoryRecord[]>([]);
  const [editError, setEditError] = useState<ApiError | Error | null>(null);
  const [status, setStatus] = useState("");
  const [busy, setBusy] = useState(false);
  const [revision, setRevision] = useState(0);
  const editorId = useId();
  const errorId = useId();
  const custom = skill.category === "custom";

  const loadHistory = useCallback(async () => {
    const h = await apiJson<{ history: WireHistoryRecord[] }>(
      `/skills/custom/${encodeURIComponent(skill.name)}/history`,
    );
    setHistory(h.history);
  }, [skill.name]);

  useEffect(() => {
    setContent(null);
    setSaved(null);
    setEditError(null);
    setStatus("");
    setHistory([]);
    if (!custom) return;
    let live = true;
    apiJson<WireCustomSkill>(`/skills/custom/${encodeURIComponent(skill.name)}`).then(
      (s) => {
        if (!live) return;
        setContent(s.content);
        setSaved(s.content);
      },
      (err: unknown) => live && setStatus(`Could not load SKILL.md: ${errorText(err)}`),
    );
    loadHistory().catch((err: unknown) => live && setStatus(`Could not load history: ${errorText(err)}`));
    return () => {
      live = false;
    };
  }, [skill.name, custom, loadHistory]);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (content === null) return;
    setBusy(true);
    setStatus("");
    try {
      const s = await apiJson<WireCustomSkill>(`/skills/custom/${encodeURIComponent(skill.name)}`, {
        method: "PUT",
        json: { content },
      });
      setContent(s.content);
      setSaved(s.content);
      setEditError(null);
      setStatus("Saved. The change is in the history below.");
      setRevision((r) => r + 1);
      await loadHistory();
      onChanged();
    } catch (err) {
      setEditError(err instanceof Error ? err : new Error(String(err)));
    } finally {
      setBusy(false);
    }
  };

  const rollback = async (index: number, record: WireHistoryRecord) => {
    setBusy(true);
    try {
      const s = await apiJson<WireCustomSkill>(`/skills/custom/${encodeURIComponent(skill.name)}/rollback`, {
        method: "POST",
        json: { history_index: index },
      });
      setContent(s.content);
      setSaved(s.content);
      setEditError(null);
      setStatus(`Rolled back to the SKILL.md before the ${record.action} of ${formatTime(record.ts)}.`);
      setRevision((r) => r + 1);
      await loadHistory();
      onChanged();
    } catch (err) {
      setStatus(`Rollback refused: ${errorText(err)}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card skill-detail" aria-labelledby="skill-detail-title" data-testid="skill-detail">
      <h2 id="skill-detail-title">
        {skill.name} <span className={`badge badge-${skill.category}`}>{skill.category}</span>
      </h2>
      <p>{skill.description}</p>
      <dl className="facts">
        <dt>Enabled</dt>
        <dd>{skill.enabled ? "yes" : "no"}</dd>
        <dt>License</dt>
        <dd>{skill.license ?? "—"}</dd>
        <dt>Location</dt>
        <dd>
          <code>
            /mnt/skills/{skill.category}/{skill.name}/SKILL.md
          </code>
        </dd>
      </dl>
      <p role="status" aria-live="polite" className="status-line" data-testid="skill-status">
        {status}
      </p>
      {custom && content !== null && (
        <form onSubmit={(e) => void save(e)} className="skill-editor">
          <label htmlFor={editorId}>SKILL.md</label>
          <textarea
            id={editorId}
            data-testid="skill-editor"
            value={content}
            onChange={(e) => setContent(e.target.value)}
            rows={16}
            spellCheck={false}
            aria-invalid={editError !== null}
            aria-describedby={editError !== null ? errorId : undefined}
          />
          {editError !== null && (
            <div id={errorId}>
              <Refusal error={editError} testId="edit-error" />
            </div>
          )}
          <div className="button-row">
            <button type="submit" disabled={busy || content === saved}>
              Save SKILL.md
            </button>
            <button
              type="button"
              className="button-quiet"
              disabled={busy || content === saved}
              onClick={() => {
                setContent(saved);
                setEditError(null);
              }}
            >
              Discard changes
            </button>
          </div>
        </form>
      )}
      <SkillFiles key={skill.name} name={skill.name} revision={revision} />
      {custom && (
        <>
          <h3>History</h3>
          {history.length === 0 ? (
            <p className="muted">No changes recorded.</p>
          ) : (
            <table className="table" data-testid="skill-history">
              <caption className="visually-hidden">Changes of {skill.name}, newest first</caption>
              <TableHead columns={["When", "Change", "By", "Scanner", "Rollback"]} />
              <tbody>
                {history
                  .map((record, index) => ({ record, index }))
                  .reverse()
                  .map(({ record, index }) => (
                    <tr key={`${record.ts}-${index}`} data-testid="history-row" data-action={record.action}>
                      <th scope="row">{formatTime(record.ts)}</th>
                      <td>
                        {record.action} <code>{record.file_path}</code>
                        {record.rollback_from_ts !== undefined && (
                          <span className="muted">
                            {" "}
                            (restored the version before {formatTime(record.rollback_from_ts)})
                          </span>
                        )}
                      </td>
                      <td>{record.author}</td>
                      <td>{record.scanner?.decision ?? "—"}</td>
                      <td>
                        {record.prev_content !== null && record.file_path === "SKILL.md" ? (
                          <button
                            type="button"
                            className="button-small"
                            disabled={busy}
                            onClick={() => void rollback(index, record)}
                            aria-label={`Roll back the ${record.action} of ${formatTime(record.ts)}`}
                          >
                            Roll back
                          </button>
                        ) : (
                          <span className="muted">—</span>
                        )}
                      </td>
                    </tr>
                  ))}
              </tbody>
            </table>
          )}
        </>
      )}
    </section>
  );
}

export function SkillsPage({ selected }: { selected: string | null }) {
  const [skills, setSkills] = useState<SkillResponse[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState("");
  const [pending, setPending] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setSkills((await apiJson<{ skills: SkillResponse[] }>("/skills")).skills);
      setError(null);
    } catch (err) {
      setError(errorText(err));
    }
  }, []);

  useEffect(() => void load(), [load]);

  const toggle = async (skill: SkillResponse) => {
    const replace = (next: SkillResponse) =>
      setSkills((prev) => prev?.map((s) => (s.name === next.name ? next : s)) ?? null);
    setPending(skill.name);
    // Shown at once; put back if the server refuses.
    replace({ ...skill, enabled: !skill.enabled });
    try {
      const updated = await apiJson<SkillResponse>(`/skills/${encodeURIComponent(skill.name)}`, {
        method: "PUT",
        json: { enabled: !skill.enabled },
      });
      replace(updated);
      setStatus(`${updated.name} is now ${updated.enabled ? "enabled" : "disabled"}.`);
    } catch (err) {
      replace(skill);
      setStatus(`Could not change ${skill.name}: ${errorText(err)}`);
    } finally {
      setPending(null);
    }
  };

  const selectedSkill = skills?.find((s) => s.name === selected);

  return (
    <section className="page" aria-labelledby="page-title">
      <div className="page-head">
        <h1 id="page-title" tabIndex={-1}>
          Skills
        </h1>
      </div>
      <UploadSkill
        onInstalled={(name) => {
          setStatus(`Installed ${name}.`);
          void load();
        }}
      />
      <p role="status" aria-live="polite" className="status-line" data-testid="skills-status">
        {status}
      </p>
      {error !== null && <p role="alert">Could not load skills: {error}</p>}
      {selectedSkill !== undefined && <SkillDetail skill={selectedSkill} onChanged={() => void load()} />}
      {selected !== null && skills !== null && selectedSkill === undefined && (
        <p role="alert">No skill named {selected}.</p>
      )}
      {skills !== null && (
        <table className="table" data-testid="skills-table">
          <caption className="visually-hidden">Installed skills</caption>
          <TableHead columns={["Name", "Category", "Enabled", "Description"]} />
          <tbody>
            {skills.map((s) => (
              <tr
                key={s.name}
                data-testid="skill-row"
                data-skill={s.name}
                data-enabled={String(s.enabled)}
                data-category={s.category}
              >
                <th scope="row">
                  <Link
                    to={`/skills/${encodeURIComponent(s.name)}`}
                    aria-current={s.name === selected ? "page" : undefined}
                  >
                    {s.name}
                  </Link>
                </th>
                <td>
                  <span className={`badge badge-${s.category}`}>{s.category}</span>
                </td>
                <td>
                  <EnableToggle
                    name={s.name}
                    enabled={s.enabled}
                    busy={pending === s.name}
                    onToggle={() => void toggle(s)}
                  />
                </td>
                <td>{s.description}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {selected !== null && (
        <p>
          <button type="button" className="button-link" onClick={() => navigate("/skills")}>
            Close the skill details
          </button>
        </p>
      )}
    </section>
  );
}
