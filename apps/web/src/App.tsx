/**
 * The console's shell: header with navigation and banners (offline demo model),
 * the API-key prompt when the server requires a key, and the current page.
 */
import { useEffect, useRef, useState } from "react";
import { ApiKeyPrompt } from "./components/ApiKeyPrompt";
import { errorText } from "./lib/api";
import { setApiKey, useAuth } from "./lib/auth";
import { Link, navigate, parseRoute, usePathname, type Route } from "./lib/router";
import type { ServerInfo } from "./lib/types";
import { ChatPage } from "./pages/ChatPage";
import { FilesPage } from "./pages/FilesPage";
import { McpPage } from "./pages/McpPage";
import { MemoryPage } from "./pages/MemoryPage";
import { SkillsPage } from "./pages/SkillsPage";
import { ThreadsPage } from "./pages/ThreadsPage";

const NAV: ReadonlyArray<{ page: Route["page"]; to: string; label: string }> = [
  { page: "chat", to: "/chat", label: "Chat" },
  { page: "threads", to: "/threads", label: "Threads" },
  { page: "skills", to: "/skills", label: "Skills" },
  { page: "files", to: "/files", label: "Files" },
  { page: "mcp", to: "/mcp", label: "MCP" },
  { page: "memory", to: "/memory", label: "Memory" },
];

function useServerInfo(): { info: ServerInfo | null; error: string | null } {
  const [info, setInfo] = useState<ServerInfo | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    fetch("/api/info", { headers: { accept: "application/json" } })
      .then(async (res) => {
        if (!res.ok) throw new Error(`GET /api/info answered ${res.status}`);
        setInfo((await res.json()) as ServerInfo);
      })
      .catch((err: unknown) => setError(errorText(err)));
  }, []);
  return { info, error };
}

function Page({ route }: { route: Route }) {
  switch (route.page) {
    case "chat":
      return <ChatPage threadId={route.params[0] ?? null} />;
    case "threads":
      return <ThreadsPage />;
    case "skills":
      return <SkillsPage selected={route.params[0] ?? null} />;
    case "files":
      return <FilesPage threadId={route.params[0] ?? null} />;
    case "mcp":
      return <McpPage />;
    case "memory":
      return <MemoryPage />;
    default:
      return (
        <section className="page" aria-labelledby="page-title">
          <h1 id="page-title" tabIndex={-1}>
            Page not found
          </h1>
          <p>
            There is no page at <code>{window.location.pathname}</code>. <Link to="/chat">Open the chat</Link>.
          </p>
        </section>
      );
  }
}

export function App() {
  const pathname = usePathname();
  const route = parseRoute(pathname);
  const { apiKey, refused } = useAuth();
  const { info, error } = useServerInfo();
  const needKey = info !== null && info.authRequired && (apiKey === null || refused);
  const label = NAV.find((n) => n.page === route.page)?.label ?? "Not found";

  useEffect(() => {
    if (pathname === "/") navigate("/chat", { replace: true });
  }, [pathname]);

  // A new page: its title, and focus on its heading (screen readers announce the page).
  const firstPage = useRef(true);
  useEffect(() => {
    document.title = `${label} · DeerFlow console`;
    if (firstPage.current) {
      firstPage.current = false;
      return;
    }
    document.querySelector<HTMLElement>("main h1")?.focus();
  }, [route.page, label]);

  return (
    <>
      <a className="skip-link" href="#main">
        Skip to main content
      </a>
      <header className="app-header">
        <div className="header-row">
          <Link to="/chat" className="brand">
            DeerFlow <span className="brand-sub">console</span>
          </Link>
          <nav aria-label="Main">
            <ul>
              {NAV.map((n) => (
                <li key={n.page}>
                  <Link to={n.to} aria-current={route.page === n.page ? "page" : undefined}>
                    {n.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
          {info !== null && (
            <span className="server-meta">
              server {info.version}
              {info.authRequired ? " · key required" : ""}
              {apiKey !== null && (
                <>
                  {" · "}
                  <button type="button" className="button-link" onClick={() => setApiKey(null)}>
                    Forget key
                  </button>
                </>
              )}
            </span>
          )}
        </div>
        {info?.demoModel === true && (
          <div className="banner banner-demo" role="note" data-testid="demo-banner">
            <strong>Offline demo model.</strong> This server answers with DeerFlow’s built-in demo model (
            <code>{info.defaultModel}</code>): deterministic, canned replies and real tool calls, no real LLM. Configure
            a model in config.yaml for genuine answers.
          </div>
        )}
        {error !== null && (
          <div className="banner banner-error" role="alert">
            Cannot reach the server’s API: {error}
          </div>
        )}
      </header>
      <main id="main" tabIndex={-1}>
        {needKey ? (
          <ApiKeyPrompt refused={refused && apiKey !== null} />
        ) : info === null && error === null ? (
          <p className="muted">Loading…</p>
        ) : (
          <Page route={route} />
        )}
      </main>
    </>
  );
}
