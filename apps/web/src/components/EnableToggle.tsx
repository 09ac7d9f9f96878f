/** The on/off switch of one named item in a table (a skill, an MCP server). */
export function EnableToggle(props: {
  /** What it switches, for the label (`Enable <name>`). */
  readonly name: string;
  readonly enabled: boolean;
  /** While the change is being saved. */
  readonly busy: boolean;
  readonly onToggle: () => void;
}) {
  return (
    <label className="toggle">
      <input
        type="checkbox"
        checked={props.enabled}
        disabled={props.busy}
        onChange={props.onToggle}
        aria-label={`Enable ${props.name}`}
      />
      <span aria-hidden="true">{props.enabled ? "on" : "off"}</span>
    </label>
  );
}
