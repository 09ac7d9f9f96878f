/**
 * Subagent progress from the `task` tool's custom stream events:
 * `task_started`, `task_running` (one per subagent message), then
 * `task_completed` / `task_failed` / `task_timed_out` / `task_cancelled`.
 */

/** One subagent task as the console shows it. */
export interface TaskProgress {
  readonly id: string;
  readonly description: string;
  readonly status: "running" | "completed" | "failed" | "timed_out" | "cancelled";
  readonly steps: number;
  readonly result?: string;
  readonly error?: string;
}

const TERMINAL: Record<string, TaskProgress["status"]> = {
  task_completed: "completed",
  task_failed: "failed",
  task_timed_out: "timed_out",
  task_cancelled: "cancelled",
};

/** Folds one custom event into the task list (other custom events are ignored). */
export function applyTaskEvent(tasks: readonly TaskProgress[], data: unknown): TaskProgress[] {
  const e = data as {
    type?: unknown;
    task_id?: unknown;
    description?: unknown;
    result?: unknown;
    error?: unknown;
    message_index?: unknown;
  } | null;
  if (typeof e !== "object" || e === null || typeof e.type !== "string" || typeof e.task_id !== "string")
    return [...tasks];
  const id = e.task_id;
  const existing = tasks.find((t) => t.id === id);
  const base: TaskProgress = existing ?? {
    id,
    description: typeof e.description === "string" ? e.description : id,
    status: "running",
    steps: 0,
  };
  let next: TaskProgress | undefined;
  if (e.type === "task_started") next = { ...base, status: "running" };
  else if (e.type === "task_running")
    next = { ...base, steps: typeof e.message_index === "number" ? e.message_index : base.steps + 1 };
  else if (e.type in TERMINAL) {
    const status = TERMINAL[e.type] ?? "failed";
    next = {
      ...base,
      status,
      ...(typeof e.result === "string" ? { result: e.result } : {}),
      ...(typeof e.error === "string" ? { error: e.error } : {}),
    };
  }
  if (next === undefined) return [...tasks];
  const updated = next;
  return existing === undefined ? [...tasks, updated] : tasks.map((t) => (t.id === id ? updated : t));
}

const LABEL: Record<TaskProgress["status"], string> = {
  running: "running",
  completed: "completed",
  failed: "failed",
  timed_out: "timed out",
  cancelled: "cancelled",
};

/** The list of subagent tasks of the current run. */
export function TaskList({ tasks }: { tasks: readonly TaskProgress[] }) {
  if (tasks.length === 0) return null;
  return (
    <section className="tasks" aria-labelledby="tasks-title" data-testid="subagent-tasks">
      <h2 id="tasks-title">Subagent tasks</h2>
      <ol>
        {tasks.map((t) => (
          <li key={t.id} data-status={t.status} data-testid="subagent-task">
            <strong>{t.description}</strong> <span className={`task-status task-${t.status}`}>{LABEL[t.status]}</span>
            {t.steps > 0 && (
              <span className="muted">
                {" "}
                · {t.steps} step{t.steps === 1 ? "" : "s"}
              </span>
            )}
            {t.result !== undefined && (
              <p className="task-result">{t.result.length > 400 ? `${t.result.slice(0, 400)}…` : t.result}</p>
            )}
            {t.error !== undefined && <p className="task-error">{t.error}</p>}
          </li>
        ))}
      </ol>
    </section>
  );
}
