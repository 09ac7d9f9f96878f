/**
 * The plan of a plan-mode run: the `todos` the agent keeps with `write_todos`
 * (LangChain's `todoListMiddleware`), read live from the thread's `values`.
 */

/** One todo as the agent writes it. */
export interface Todo {
  readonly content: string;
  readonly status: "pending" | "in_progress" | "completed";
}

const LABEL: Record<Todo["status"], string> = { pending: "to do", in_progress: "in progress", completed: "done" };

/** The agent's todo list; nothing when it has none. */
export function TodoList({ todos }: { todos: readonly Todo[] }) {
  if (todos.length === 0) return null;
  const done = todos.filter((t) => t.status === "completed").length;
  return (
    <section className="todos" aria-labelledby="todos-title" data-testid="todos">
      <h2 id="todos-title">
        Plan{" "}
        <span className="muted">
          ({done} of {todos.length} done)
        </span>
      </h2>
      <ol>
        {todos.map((t, i) => (
          <li key={`${i}-${t.content}`} data-status={t.status} data-testid="todo">
            {t.content} <span className={`task-status todo-${t.status}`}>{LABEL[t.status] ?? t.status}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}
