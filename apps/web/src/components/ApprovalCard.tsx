/**
 * The approval card: a run stopped before tools that need a human decision
 * (`guardrails.require_approval`, LangChain's human-in-the-loop interrupt
 * `{ actionRequests, reviewConfigs }`). Each call shows its tool and arguments
 * with the decisions it allows — approve, edit the arguments, or reject with
 * a reason for the agent — and one button sends them all as the run's
 * `resume: { decisions }`.
 */
import { useState, type FormEvent } from "react";
import { ErrorAlert } from "./ErrorAlert";

type DecisionType = "approve" | "edit" | "reject";

/** One call waiting for a decision. */
interface ActionRequest {
  readonly name: string;
  readonly args: Record<string, unknown>;
  readonly description?: string;
}

/** The interrupt value of an approval stop. */
export interface ApprovalRequest {
  readonly actionRequests: readonly ActionRequest[];
  readonly reviewConfigs: readonly {
    readonly actionName: string;
    readonly allowedDecisions: readonly DecisionType[];
  }[];
}

/** What the run is resumed with, one per action, in order. */
export type ApprovalDecision =
  | { readonly type: "approve" }
  | { readonly type: "edit"; readonly editedAction: { readonly name: string; readonly args: Record<string, unknown> } }
  | { readonly type: "reject"; readonly message?: string };

/**
 * Whether an interrupt value is an approval stop (and not, e.g., a clarification question).
 *
 * @param value - `interrupt.value`
 * @returns true for `{ actionRequests: [...], reviewConfigs: [...] }`
 */
export function isApprovalRequest(value: unknown): value is ApprovalRequest {
  const v = value as Partial<ApprovalRequest> | null | undefined;
  return Array.isArray(v?.actionRequests) && Array.isArray(v?.reviewConfigs) && v.actionRequests.length > 0;
}

const LABEL: Record<DecisionType, string> = { approve: "Approve", edit: "Edit the arguments", reject: "Reject" };

interface Choice {
  readonly type: DecisionType;
  readonly argsText: string;
  readonly reason: string;
}

const pretty = (args: unknown): string => JSON.stringify(args, null, 2);

/** The card; `onDecide` receives the decisions when they are sent. */
export function ApprovalCard({
  request,
  disabled,
  onDecide,
}: {
  request: ApprovalRequest;
  disabled: boolean;
  onDecide: (decisions: ApprovalDecision[]) => void;
}) {
  const [choices, setChoices] = useState<Choice[]>(() =>
    request.actionRequests.map((a) => ({ type: "approve", argsText: pretty(a.args), reason: "" })),
  );
  const [error, setError] = useState<string | null>(null);
  const update = (i: number, change: Partial<Choice>) =>
    setChoices((prev) => prev.map((c, j) => (j === i ? { ...c, ...change } : c)));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const decisions: ApprovalDecision[] = [];
    for (const [i, action] of request.actionRequests.entries()) {
      const choice = choices[i] ?? { type: "approve", argsText: "", reason: "" };
      if (choice.type === "approve") decisions.push({ type: "approve" });
      else if (choice.type === "reject")
        decisions.push(
          choice.reason.trim() === "" ? { type: "reject" } : { type: "reject", message: choice.reason.trim() },
        );
      else {
        let args: unknown;
        try {
          args = JSON.parse(choice.argsText);
        } catch {
          args = undefined;
        }
        if (typeof args !== "object" || args === null || Array.isArray(args)) {
          setError(`The arguments of ${action.name} must be a JSON object.`);
          return;
        }
        decisions.push({ type: "edit", editedAction: { name: action.name, args: args as Record<string, unknown> } });
      }
    }
    setError(null);
    onDecide(decisions);
  };

  return (
    <form className="approval card" aria-labelledby="approval-title" data-testid="approval" onSubmit={submit}>
      <h2 id="approval-title">Approval needed</h2>
      <p className="muted">
        The agent stopped before{" "}
        {request.actionRequests.length === 1 ? "this tool call" : `these ${request.actionRequests.length} tool calls`}.
        Nothing runs until you decide.
      </p>
      {request.actionRequests.map((action, i) => {
        const allowed = request.reviewConfigs[i]?.allowedDecisions ?? ["approve", "reject"];
        const choice = choices[i];
        const id = `approval-${i}`;
        return (
          <fieldset key={id} className="approval-action" data-testid="approval-action">
            <legend>
              Tool <code>{action.name}</code>
            </legend>
            <pre className="approval-args" aria-label={`Arguments of ${action.name}`}>
              {pretty(action.args)}
            </pre>
            <div className="approval-choices">
              {allowed.map((type) => (
                <label key={type}>
                  <input
                    type="radio"
                    name={`${id}-decision`}
                    value={type}
                    checked={choice?.type === type}
                    onChange={() => update(i, { type })}
                    disabled={disabled}
                  />{" "}
                  {LABEL[type]}
                </label>
              ))}
            </div>
            {choice?.type === "edit" && (
              <>
                <label htmlFor={`${id}-args`}>Arguments to run {action.name} with (JSON)</label>
                <textarea
                  id={`${id}-args`}
                  rows={6}
                  value={choice.argsText}
                  onChange={(e) => update(i, { argsText: e.target.value })}
                  disabled={disabled}
                />
              </>
            )}
            {choice?.type === "reject" && (
              <>
                <label htmlFor={`${id}-reason`}>Reason for the agent (optional)</label>
                <input
                  id={`${id}-reason`}
                  type="text"
                  value={choice.reason}
                  onChange={(e) => update(i, { reason: e.target.value })}
                  disabled={disabled}
                />
              </>
            )}
          </fieldset>
        );
      })}
      <ErrorAlert error={error} />
      <div>
        <button type="submit" disabled={disabled}>
          Send decision
        </button>
      </div>
    </form>
  );
}
