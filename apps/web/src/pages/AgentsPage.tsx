/**
 * Agents: the signed-in user's custom agents (DeerFlow's `/api/agents`). The
 * list (name, description, model) with chat, edit and delete (with a
 * confirmation step); a form to create one; `/agents/<name>` edits an agent,
 * its SOUL included. "Chat" opens `/agents/<name>/chat`, whose runs carry
 * `context.agent_name`. Below, the user's profile (USER.md). When the server
 * has `agents_api.enabled` off, its 403 text is shown.
 */
import { useCallback, useEffect, useState } from "react";
import { AgentForm } from "../components/AgentForm";
import { ConfirmButton } from "../components/ConfirmButton";
import { ErrorAlert } from "../components/ErrorAlert";
import { TableHead } from "../components/TableHead";
import { UserProfileEditor } from "../components/UserProfileEditor";
import { ApiError, errorText } from "../lib/api";
import { createAgent, deleteAgent, getAgent, listAgents, updateAgent, type Agent, type AgentBody } from "../lib/agents";
import { Link, navigate } from "../lib/router";
import { useAsyncAction } from "../lib/useAsyncAction";
import { whileLive } from "../lib/whileLive";

function agentPath(name: string, rest = ""): string {
  return `/agents/${encodeURIComponent(name)}${rest}`;
}

function AgentRow({ agent, onDeleted }: { agent: Agent; onDeleted: (name: string) => void }) {
  // Busy until the list reloads without this row.
  const { busy, error, run } = useAsyncAction({ busyAfterSuccess: true });
  const remove = () =>
    run(async () => {
      await deleteAgent(agent.name);
      onDeleted(agent.name);
    });
  return (
    <tr data-testid="agent-row" data-agent={agent.name}>
      <th scope="row">
        <Link to={agentPath(agent.name)}>{agent.name}</Link>
      </th>
      <td>{agent.description === "" ? <span className="muted">—</span> : agent.description}</td>
      <td>{agent.model ?? <span className="muted">server default</span>}</td>
      <td className="actions">
        <span className="inline-form">
          <Link to={agentPath(agent.name, "/chat")} className="button button-small">
            Chat<span className="visually-hidden"> with {agent.name}</span>
          </Link>
          <Link to={agentPath(agent.name)} className="button button-small button-quiet">
            Edit<span className="visually-hidden"> {agent.name}</span>
          </Link>
          <ConfirmButton
            label="Delete"
            subject={agent.name}
            confirmLabel={`Yes, delete ${agent.name}`}
            busy={busy}
            small
            onConfirm={remove}
          />
        </span>
        <ErrorAlert error={error} />
      </td>
    </tr>
  );
}

function AgentList() {
  const [agents, setAgents] = useState<Agent[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [disabled, setDisabled] = useState(false);
  const [message, setMessage] = useState("");
  const { busy, error, run } = useAsyncAction();
  const [formKey, setFormKey] = useState(0);

  const load = useCallback(async () => {
    try {
      setAgents(await listAgents());
      setProblem(null);
    } catch (err) {
      // 403: the server's own text says how to turn the API on.
      setDisabled(err instanceof ApiError && err.status === 403);
      setProblem(errorText(err));
    }
  }, []);
  useEffect(() => void load(), [load]);

  const create = async (body: AgentBody) => {
    setMessage("");
    await run(async () => {
      const created = await createAgent(body);
      setMessage(`Agent “${created.name}” created.`);
      setFormKey((k) => k + 1);
      await load();
    });
  };

  if (problem !== null) return <ErrorAlert error={problem} testId={disabled ? "agents-disabled" : "agents-error"} />;
  return (
    <>
      <p role="status" className="status-line" data-testid="agents-message">
        {message}
      </p>
      {agents !== null && agents.length === 0 && (
        <p className="muted" data-testid="no-agents">
          No custom agents yet.
        </p>
      )}
      {agents !== null && agents.length > 0 && (
        <table className="table" data-testid="agents-table">
          <caption className="visually-hidden">Your agents</caption>
          <TableHead columns={["Name", "Description", "Model"]} actions />
          <tbody>
            {agents.map((a) => (
              <AgentRow
                key={a.name}
                agent={a}
                onDeleted={(n) => {
                  setMessage(`Deleted “${n}”.`);
                  void load();
                }}
              />
            ))}
          </tbody>
        </table>
      )}
      <h2 id="new-agent-title">New agent</h2>
      <ErrorAlert error={error} testId="agent-form-error" />
      <AgentForm key={formKey} busy={busy} submitLabel="Create agent" onSubmit={(b) => void create(b)} />
      <UserProfileEditor />
    </>
  );
}

function AgentEditor({ name }: { name: string }) {
  const [agent, setAgent] = useState<Agent | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [message, setMessage] = useState("");
  const { busy, error, run } = useAsyncAction();
  const [version, setVersion] = useState(0);

  useEffect(() => {
    setAgent(null);
    return whileLive(getAgent(name), setAgent, (err) => setProblem(errorText(err)));
  }, [name]);

  const save = async (body: AgentBody) => {
    setMessage("");
    await run(async () => {
      const { name: _unchanged, ...rest } = body;
      const saved = await updateAgent(name, rest);
      // The PUT answer may leave the SOUL out: keep what was just saved.
      setAgent({ ...saved, soul: saved.soul ?? body.soul });
      setVersion((v) => v + 1);
      setMessage(`Saved “${name}”.`);
    });
  };

  return (
    <>
      <div className="page-head">
        <p>
          <Link to="/agents">All agents</Link>
        </p>
        {agent !== null && (
          <Link to={agentPath(name, "/chat")} className="button button-small">
            Chat with {name}
          </Link>
        )}
      </div>
      <ErrorAlert error={problem} testId="agents-error" />
      <ErrorAlert error={error} testId="agent-form-error" />
      <p role="status" className="status-line" data-testid="agents-message">
        {message}
      </p>
      {agent !== null && (
        <AgentForm key={version} initial={agent} busy={busy} submitLabel="Save agent" onSubmit={(b) => void save(b)} />
      )}
    </>
  );
}

/** `/agents` (list and create) or `/agents/<name>` (edit). */
export function AgentsPage({ name }: { name: string | null }) {
  useEffect(() => {
    if (name !== null && name.trim() === "") navigate("/agents", { replace: true });
  }, [name]);
  return (
    <section className="page" aria-labelledby="page-title">
      <h1 id="page-title" tabIndex={-1}>
        {name === null ? "Agents" : `Agent ${name}`}
      </h1>
      {name === null ? <AgentList /> : <AgentEditor key={name} name={name} />}
    </section>
  );
}
