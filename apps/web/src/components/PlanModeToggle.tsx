/**
 * The composer's plan-mode switch: a run sent with it on carries
 * `context.is_plan_mode: true`, so the agent may keep a todo list (`write_todos`).
 */

/** A labelled checkbox for plan mode. */
export function PlanModeToggle({
  on,
  onChange,
  disabled,
}: {
  on: boolean;
  onChange: (on: boolean) => void;
  disabled?: boolean;
}) {
  return (
    <label className="plan-mode-toggle" title="The agent writes and updates a plan (todo list) as it works">
      <input
        type="checkbox"
        checked={on}
        onChange={(e) => onChange(e.target.checked)}
        disabled={disabled}
        data-testid="plan-mode"
      />{" "}
      Plan mode
    </label>
  );
}
