/**
 * Chat: the thread list, the conversation of the open thread and the composer.
 *
 * Streaming uses the official `useStream` hook of `@langchain/langgraph-sdk/react`
 * against this server's `/api`, unchanged: `reconnectOnMount` stores the run id in
 * sessionStorage so a reload rejoins a run still in progress (`joinStream` from
 * event `-1`); Stop aborts the stream and cancels the run (`runs.cancel`).
 */
import type { Message } from "@langchain/langgraph-sdk";
import { useStream } from "@langchain/langgraph-sdk/react";
import { useEffect, useMemo, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import { ApprovalCard, isApprovalRequest, type ApprovalDecision } from "../components/ApprovalCard";
import type { WireFileInfo } from "@deerflow/gateway";
import { ComposerAttachments, messageFiles } from "../components/ComposerAttachments";
import { FileLink } from "../components/FileLink";
import { MessageView } from "../components/MessageView";
import { ModelPicker, useModels } from "../components/ModelPicker";
import { PlanModeToggle } from "../components/PlanModeToggle";
import { ThinkingToggle } from "../components/ThinkingToggle";
import { TaskList, applyTaskEvent, type TaskProgress } from "../components/TaskList";
import { TodoList, type Todo } from "../components/TodoList";
import { TokenUsage, type TokenUsageCounts } from "../components/TokenUsage";
import { ASSISTANT_ID, CALLER_OPTIONS, apiUrl, errorText, formatTime } from "../lib/api";
import { useAuth } from "../lib/auth";
import { Link, navigate } from "../lib/router";
import {
  notifyThreadsChanged,
  rememberThread,
  threadAgent,
  threadPath,
  threadTitle,
  useThreadList,
} from "../lib/threads";
import { whileLive } from "../lib/whileLive";

/** The lead agent's state as the console reads it. */
type AgentState = {
  messages: Message[];
  artifacts?: string[];
  todos?: Todo[];
  title?: string;
  token_usage?: TokenUsageCounts;
  run_token_usage?: TokenUsageCounts;
};

interface Outcome {
  readonly kind: "done" | "cancelled" | "error";
  readonly text: string;
}

function ThreadSidebar({ threadId }: { threadId: string | null }) {
  const { threads, loading, error } = useThreadList();
  return (
    <aside className="sidebar" aria-labelledby="chat-threads-title">
      <div className="sidebar-head">
        <h2 id="chat-threads-title">Threads</h2>
        <Link to="/chat" className="button button-small" data-testid="new-chat">
          New chat
        </Link>
      </div>
      {error !== null && <p role="alert">Could not load threads: {error}</p>}
      {!loading && threads.length === 0 && error === null && <p className="muted">No threads yet.</p>}
      <ul className="thread-links">
        {threads.map((t) => (
          <li key={t.thread_id}>
            <Link to={threadPath(t)} aria-current={t.thread_id === threadId ? "page" : undefined}>
              <span className="thread-link-title">{threadTitle(t)}</span>
              <span className="thread-link-meta">{formatTime(t.updated_at)}</span>
            </Link>
          </li>
        ))}
      </ul>
    </aside>
  );
}

/**
 * The chat of `threadId` (or a new one); with `agentName`, a chat with that custom agent:
 * its runs carry `context.agent_name` and its paths are `/agents/<name>/chat/<thread>`.
 */
export function ChatPage({ threadId, agentName = null }: { threadId: string | null; agentName?: string | null }) {
  const chatPath = agentName === null ? "/chat" : `/agents/${encodeURIComponent(agentName)}/chat`;
  const { apiKey } = useAuth();
  const [draft, setDraft] = useState("");
  const [tasks, setTasks] = useState<TaskProgress[]>([]);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [stopping, setStopping] = useState(false);
  const [title, setTitle] = useState<string | null>(null);
  const [planMode, setPlanMode] = useState(false);
  const { models } = useModels();
  const [modelName, setModelName] = useState<string | null>(null);
  const [thinking, setThinking] = useState(true);
  const pickedModel = models?.find((m) => m.name === modelName) ?? models?.[0];
  const [attachments, setAttachments] = useState<WireFileInfo[]>([]);
  /** True once this page sent a message (a run streaming without it was rejoined). */
  const [submitted, setSubmitted] = useState(false);
  /** The thread id `useStream` just created (adopting it must not reset the run's UI). */
  const adoptedRef = useRef<string | null>(null);
  const shownThreadRef = useRef<string | null>(threadId);

  const stream = useStream<AgentState>({
    apiUrl: apiUrl(),
    apiKey: apiKey ?? null,
    callerOptions: CALLER_OPTIONS,
    assistantId: ASSISTANT_ID,
    threadId,
    reconnectOnMount: true,
    onThreadId: (id) => {
      adoptedRef.current = id;
      navigate(`${chatPath}/${encodeURIComponent(id)}`, { replace: true });
      notifyThreadsChanged();
    },
    onCustomEvent: (data) => setTasks((prev) => applyTaskEvent(prev, data)),
    onStop: () =>
      setOutcome({ kind: "cancelled", text: "Run cancelled. The agent stopped; what it did so far is kept." }),
    onError: (err) =>
      setOutcome((prev) =>
        prev?.kind === "cancelled" ? prev : { kind: "error", text: `Run failed: ${errorText(err)}` },
      ),
    onFinish: () => {
      setOutcome((prev) =>
        prev?.kind === "cancelled" || prev?.kind === "error" ? prev : { kind: "done", text: "Answer complete." },
      );
      notifyThreadsChanged();
    },
  });

  // A different thread (sidebar, Threads page, New chat): fresh run UI.
  useEffect(() => {
    if (shownThreadRef.current === threadId) return;
    shownThreadRef.current = threadId;
    if (threadId !== null && threadId === adoptedRef.current) return;
    adoptedRef.current = null;
    setAttachments([]);
    setTasks([]);
    setOutcome(null);
    setSubmitted(false);
    setStopping(false);
  }, [threadId]);

  useEffect(() => rememberThread(threadId), [threadId]);

  // The thread's title (metadata.title), for the heading: read again after each run.
  useEffect(() => setTitle(null), [threadId]);
  useEffect(() => {
    if (threadId === null) return;
    return whileLive(
      stream.client.threads.get(threadId),
      (t) => {
        setTitle(threadTitle(t));
        // A custom agent's thread opened at /chat/<id>: continue it with that agent.
        if (agentName === null && threadAgent(t) !== null) navigate(threadPath(t), { replace: true });
      },
      () => setTitle(null),
    );
  }, [threadId, outcome?.kind]);

  const messages = stream.messages;
  const results = useMemo(() => {
    const map = new Map<string, Message>();
    for (const m of messages) if (m.type === "tool" && typeof m.tool_call_id === "string") map.set(m.tool_call_id, m);
    return map;
  }, [messages]);
  const artifacts = stream.values?.artifacts ?? [];
  const interrupt = stream.interrupt;
  const question = (interrupt?.value as { question?: unknown } | undefined)?.question;
  const approval = isApprovalRequest(interrupt?.value) ? interrupt.value : undefined;
  const decide = (decisions: ApprovalDecision[]) => {
    setOutcome(null);
    setSubmitted(true);
    void stream.submit(null, { command: { resume: { decisions } } });
  };

  // The picked model (else the server's default, listed first) and, for a thinking model, the switch.
  // A custom agent's chat sends none until one is picked: the agent's own model and thinking apply.
  const runModelContext = (): Record<string, unknown> =>
    pickedModel === undefined || (agentName !== null && modelName === null)
      ? {}
      : { model_name: pickedModel.name, ...(pickedModel.supports_thinking ? { thinking_enabled: thinking } : {}) };

  const send = () => {
    const text = draft.trim();
    if (text === "" || stream.isLoading) return;
    setDraft("");
    setTasks([]);
    setOutcome(null);
    setStopping(false);
    setSubmitted(true);
    // Attached uploads ride on the message (additional_kwargs.files); the agent announces them to the model.
    const human: Message = {
      type: "human",
      content: text,
      ...(attachments.length === 0 ? {} : { additional_kwargs: { files: messageFiles(attachments) } }),
    };
    setAttachments([]);
    const options = {
      optimisticValues: (prev: AgentState) => ({
        ...prev,
        messages: [...(prev.messages ?? []), { ...human, id: `pending-${Date.now()}` }],
      }),
      // The thread's title comes from the agent (TitleMiddleware → metadata.title) after the first exchange.
      // A new thread of a custom agent records it (thread metadata), so its links reopen the agent's chat.
      ...(agentName === null || threadId !== null ? {} : { metadata: { agent_name: agentName } }),
      context: {
        ...(planMode ? { is_plan_mode: true } : {}),
        ...runModelContext(),
        ...(agentName === null ? {} : { agent_name: agentName }),
      },
    };
    if (typeof question === "string") void stream.submit(null, { ...options, command: { resume: text } });
    else void stream.submit({ messages: [human] }, options);
  };

  // Attaching in a new chat creates its thread first (the files need somewhere to go).
  const ensureThread = async (): Promise<string> => {
    if (threadId !== null) return threadId;
    const created = await stream.client.threads.create(
      agentName === null ? {} : { metadata: { agent_name: agentName } },
    );
    adoptedRef.current = created.thread_id;
    navigate(`${chatPath}/${encodeURIComponent(created.thread_id)}`, { replace: true });
    notifyThreadsChanged();
    return created.thread_id;
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    send();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
    }
  };

  const stop = () => {
    setStopping(true);
    void stream.stop().finally(() => setStopping(false));
  };

  const status = stream.isLoading
    ? stopping
      ? "Stopping the run…"
      : submitted
        ? "The agent is working…"
        : "Rejoined a run in progress; streaming the rest…"
    : stream.isThreadLoading
      ? "Loading the thread…"
      : approval !== undefined
        ? "The run is waiting for your decision on the tool call above."
        : (outcome?.text ?? "");

  const heading =
    threadId === null
      ? agentName === null
        ? "New chat"
        : `New chat with ${agentName}`
      : (title ?? stream.values?.title ?? "Chat");

  return (
    <div className="chat-layout">
      <ThreadSidebar threadId={threadId} />
      <section className="conversation" aria-labelledby="page-title">
        <div className="page-head">
          <h1 id="page-title" tabIndex={-1}>
            {heading}
          </h1>
          {agentName !== null && (
            <p className="agent-chip" data-testid="chat-agent">
              Agent <Link to={`/agents/${encodeURIComponent(agentName)}`}>{agentName}</Link>
            </p>
          )}
          {threadId !== null && (
            <Link to={`/files/${encodeURIComponent(threadId)}`} className="button button-small button-quiet">
              Files of this thread
            </Link>
          )}
        </div>

        {messages.length === 0 && !stream.isLoading && !stream.isThreadLoading && (
          <p className="muted empty-hint">
            Ask the agent something. Try “please list the workspace”, “write a short report about otters”, or “research
            otters and beavers in parallel”.
          </p>
        )}

        <ol className="messages" aria-label="Conversation" data-testid="messages">
          {messages.map((m, i) => (
            <MessageView key={m.id ?? `m-${i}`} message={m} results={results} running={stream.isLoading} />
          ))}
        </ol>

        <TaskList tasks={tasks} />

        <TodoList todos={stream.values?.todos ?? []} />

        <TokenUsage thread={stream.values?.token_usage} run={stream.values?.run_token_usage} />

        {artifacts.length > 0 && threadId !== null && (
          <section className="artifacts" aria-labelledby="artifacts-title">
            <h2 id="artifacts-title">Artifacts</h2>
            <ul>
              {artifacts.map((p) => (
                <li key={p}>
                  <FileLink
                    url={`/api/threads/${encodeURIComponent(threadId)}/artifacts${p}`}
                    name={p.split("/").at(-1) ?? p}
                  />{" "}
                  <span className="muted">{p}</span>
                </li>
              ))}
            </ul>
          </section>
        )}

        {typeof question === "string" && !stream.isLoading && (
          <div className="clarification" role="note" data-testid="clarification">
            <strong>The agent asks:</strong> {question} <span className="muted">(reply below)</span>
          </div>
        )}

        {approval !== undefined && !stream.isLoading && (
          <ApprovalCard
            key={interrupt?.id ?? "approval"}
            request={approval}
            disabled={stream.isLoading}
            onDecide={decide}
          />
        )}

        {stream.error !== undefined && stream.error !== null && outcome?.kind !== "cancelled" && (
          <p role="alert" className="error">
            {errorText(stream.error)}
          </p>
        )}

        <p
          className="run-status"
          role="status"
          aria-live="polite"
          data-testid="run-status"
          data-outcome={stream.isLoading ? "running" : (outcome?.kind ?? "idle")}
        >
          {status}
        </p>

        <form className="composer" onSubmit={onSubmit} aria-label="Send a message">
          <label htmlFor="composer-input">Message</label>
          <textarea
            id="composer-input"
            value={draft}
            rows={3}
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={onKeyDown}
            placeholder="Ask the agent…"
            aria-describedby="composer-help"
          />
          <div className="composer-row">
            <p id="composer-help" className="hint">
              Enter sends · Shift+Enter adds a new line
            </p>
            <div className="composer-actions">
              <button type="submit" disabled={draft.trim() === "" || stream.isLoading}>
                Send
              </button>
              <button type="button" className="button-danger" onClick={stop} disabled={!stream.isLoading || stopping}>
                Stop
              </button>
              {/* After Send and Stop, so Tab goes from the message straight to Send. */}
              {models !== null && (
                <ModelPicker
                  models={models}
                  value={modelName}
                  onChange={setModelName}
                  disabled={stream.isLoading}
                  {...(agentName === null ? {} : { unsetLabel: "The agent’s model" })}
                />
              )}
              {pickedModel?.supports_thinking === true && (agentName === null || modelName !== null) && (
                <ThinkingToggle on={thinking} onChange={setThinking} disabled={stream.isLoading} />
              )}
              <PlanModeToggle on={planMode} onChange={setPlanMode} disabled={stream.isLoading} />
            </div>
          </div>
          <ComposerAttachments
            files={attachments}
            onChange={setAttachments}
            ensureThread={ensureThread}
            disabled={stream.isLoading}
          />
        </form>
      </section>
    </div>
  );
}
