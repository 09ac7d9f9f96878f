/**
 * MCP: the servers of `extensions_config.json` with their state (connected,
 * failed with the reason, disabled), tool count and tools, and an on/off switch
 * per server. A switch writes the whole server map back with `PUT
 * /api/mcp/config` (masked secrets travel as `***`, which the server restores),
 * so the agent's next model call sees the change.
 */
import { useCallback, useEffect, useState } from "react";
import { apiJson, errorText } from "../lib/api";
import { EnableToggle } from "../components/EnableToggle";
import { TableHead } from "../components/TableHead";

interface ServerStatus {
  readonly name: string;
  readonly enabled: boolean;
  readonly type: string;
  readonly state: "connected" | "failed" | "disabled" | "pending";
  readonly error: string | null;
  readonly tool_count: number;
  readonly tools: readonly { readonly name: string; readonly description: string }[];
}

type ServerMap = Record<string, Record<string, unknown>>;

const STATE_LABEL: Record<ServerStatus["state"], string> = {
  connected: "connected",
  failed: "failed",
  disabled: "disabled",
  pending: "starting…",
};

export function McpPage() {
  const [servers, setServers] = useState<ServerStatus[] | null>(null);
  const [config, setConfig] = useState<ServerMap>({});
  const [problem, setProblem] = useState("");
  const [message, setMessage] = useState("");
  const [pending, setPending] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      const [status, cfg] = await Promise.all([
        apiJson<{ servers: ServerStatus[] }>("/mcp/status"),
        apiJson<{ mcp_servers: ServerMap }>("/mcp/config"),
      ]);
      setServers(status.servers);
      setConfig(cfg.mcp_servers);
      setProblem("");
    } catch (err) {
      setProblem(`Could not load the MCP servers: ${errorText(err)}`);
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  const toggle = async (s: ServerStatus) => {
    const entry = config[s.name];
    if (entry === undefined) return;
    setPending(s.name);
    setMessage("");
    try {
      await apiJson("/mcp/config", {
        method: "PUT",
        json: { mcp_servers: { ...config, [s.name]: { ...entry, enabled: !s.enabled } } },
      });
      setMessage(`${s.name} ${s.enabled ? "disabled" : "enabled"}.`);
      await load();
    } catch (err) {
      setProblem(`Could not update ${s.name}: ${errorText(err)}`);
    } finally {
      setPending(null);
    }
  };

  return (
    <section className="page" aria-labelledby="page-title">
      <h1 id="page-title" tabIndex={-1}>
        MCP servers
      </h1>
      <p className="muted">
        The MCP servers of extensions_config.json. Their tools are offered to the agent as <code>server_tool</code>; a
        server that fails to start is skipped and shows why.
      </p>
      <p>
        <button type="button" onClick={() => void load()}>
          Refresh
        </button>
      </p>
      <div aria-live="polite" className="status-line">
        {message !== "" && (
          <span className="success" data-testid="mcp-message">
            {message}
          </span>
        )}
      </div>
      {problem !== "" && (
        <p role="alert" className="refusal" data-testid="mcp-error">
          {problem}
        </p>
      )}
      {servers === null ? (
        <p className="muted">Loading…</p>
      ) : servers.length === 0 ? (
        <p data-testid="mcp-empty">No MCP servers are configured.</p>
      ) : (
        <table className="table" data-testid="mcp-servers">
          <caption>Configured servers</caption>
          <TableHead columns={["Server", "Transport", "State", "Enabled", "Tools"]} />
          <tbody>
            {servers.map((s) => (
              <tr key={s.name} data-testid={`mcp-server-${s.name}`} data-state={s.state}>
                <th scope="row">{s.name}</th>
                <td>{s.type}</td>
                <td>
                  <span className={`badge badge-mcp-${s.state}`}>{STATE_LABEL[s.state]}</span>
                  {s.error !== null && <p className="muted mcp-error-text">{s.error}</p>}
                </td>
                <td>
                  <EnableToggle
                    name={s.name}
                    enabled={s.enabled}
                    busy={pending === s.name}
                    onToggle={() => void toggle(s)}
                  />
                </td>
                <td>
                  {s.tool_count === 0 ? (
                    <span className="muted">none</span>
                  ) : (
                    <details>
                      <summary>
                        {s.tool_count} tool{s.tool_count === 1 ? "" : "s"}
                      </summary>
                      <ul className="mcp-tools">
                        {s.tools.map((t) => (
                          <li key={t.name}>
                            <code>{t.name}</code>
                            {t.description !== "" && <span className="muted"> — {t.description}</span>}
                          </li>
                        ))}
                      </ul>
                    </details>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
