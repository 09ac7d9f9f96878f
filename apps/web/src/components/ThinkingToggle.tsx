/**
 * The composer's thinking switch, shown for a model with `supports_thinking`:
 * on (DeerFlow's default) or off, sent as `context.thinking_enabled`.
 */

/** A labelled checkbox for the run's thinking. */
export function ThinkingToggle({
  on,
  onChange,
  disabled,
}: {
  on: boolean;
  onChange: (on: boolean) => void;
  disabled?: boolean;
}) {
  return (
    <label
      className="plan-mode-toggle"
      title="The model reasons before answering (its reasoning shows folded above the answer)"
    >
      <input
        type="checkbox"
        checked={on}
        onChange={(e) => onChange(e.target.checked)}
        disabled={disabled}
        data-testid="thinking-toggle"
      />{" "}
      Thinking
    </label>
  );
}
