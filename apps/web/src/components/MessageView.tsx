/**
 * One message of the conversation: human text, AI text with its tool calls
 * (name, arguments and, once it arrived, the tool's result).
 */
import type { Message } from "@langchain/langgraph-sdk";
import { ReasoningView } from "./ReasoningView";
import { WebResults } from "./WebResults";

/** The text of a message's content (string or content blocks). */
function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content
      .map((block: unknown) => {
        if (typeof block === "string") return block;
        const b = block as { type?: string; text?: string };
        return b.type === "text" && typeof b.text === "string" ? b.text : "";
      })
      .join("");
  }
  return content === undefined || content === null ? "" : JSON.stringify(content);
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}\n… (${text.length - max} more characters)`;
}

/** What a tool call does, in words (sandbox command, file write, skill read...). */
function toolKind(name: string, args: Record<string, unknown>): string {
  const p = typeof args["path"] === "string" ? args["path"] : "";
  switch (name) {
    case "bash":
      return "Sandbox command";
    case "write_file":
    case "str_replace":
      return "File write";
    case "read_file":
      return p.startsWith("/mnt/skills") ? "Skill read" : "File read";
    case "ls":
    case "glob":
    case "grep":
      return "Workspace lookup";
    case "task":
      return "Subagent task";
    case "present_files":
      return "Presented files";
    case "ask_clarification":
      return "Clarification";
    case "describe_skill":
    case "skill_manage":
      return "Skill";
    case "web_search":
      return "Web search";
    case "image_search":
      return "Image search";
    case "web_fetch":
      return "Web page";
    default:
      return "Tool";
  }
}

type ToolCall = { name: string; args: Record<string, unknown>; id?: string | undefined };

function ToolCallView({ call, result, running }: { call: ToolCall; result: Message | undefined; running: boolean }) {
  const status =
    result === undefined
      ? running
        ? "running…"
        : "no result"
      : (result as { status?: string }).status === "error"
        ? "failed"
        : "done";
  const command = call.name === "bash" && typeof call.args["command"] === "string" ? call.args["command"] : undefined;
  return (
    <li className="tool-call" data-testid="tool-call" data-tool-name={call.name} data-status={status}>
      <p className="tool-head">
        <span className="tool-kind">{toolKind(call.name, call.args)}</span>{" "}
        <code className="tool-name">{call.name}</code>{" "}
        <span className={`tool-status tool-status-${status.replace(/\W/g, "")}`}>{status}</span>
      </p>
      {command !== undefined ? (
        <pre className="code" aria-label="Command">
          $ {command}
        </pre>
      ) : (
        <pre className="code" aria-label="Arguments">
          {JSON.stringify(call.args, null, 2)}
        </pre>
      )}
      {result !== undefined && <WebResults text={textOf(result.content)} />}
      {result !== undefined && (
        <details className="tool-result" open={textOf(result.content).length < 600}>
          <summary>Result of {call.name}</summary>
          <pre className="code" data-testid="tool-result">
            {truncate(textOf(result.content), 4000)}
          </pre>
        </details>
      )}
    </li>
  );
}

/** A conversation entry. */
export function MessageView({
  message,
  results,
  running,
}: {
  message: Message;
  results: ReadonlyMap<string, Message>;
  running: boolean;
}) {
  if (message.type === "human") {
    return (
      <li className="msg msg-human" data-testid="message-human">
        <p className="who">You</p>
        {/* The agent prepends a <current_uploads> block for the model; the user sees what they wrote. */}
        <div className="text">
          {textOf(message.content).replace(/^<current_uploads>[\s\S]*?<\/current_uploads>\n\n/, "")}
        </div>
      </li>
    );
  }
  if (message.type === "ai") {
    const text = textOf(message.content);
    const calls = (message.tool_calls ?? []) as ToolCall[];
    return (
      <li className="msg msg-ai" data-testid="message-ai">
        <p className="who">DeerFlow</p>
        <ReasoningView message={message} />
        {text !== "" && <div className="text">{text}</div>}
        {calls.length > 0 && (
          <ul className="tool-calls" aria-label="Tool calls">
            {calls.map((call, i) => (
              <ToolCallView
                key={call.id ?? i}
                call={call}
                result={call.id === undefined ? undefined : results.get(call.id)}
                running={running}
              />
            ))}
          </ul>
        )}
      </li>
    );
  }
  if (message.type === "system") {
    return (
      <li className="msg msg-system">
        <p className="who">System</p>
        <div className="text">{textOf(message.content)}</div>
      </li>
    );
  }
  return null;
}
