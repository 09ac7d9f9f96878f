/**
 * The console's shell: header with navigation and banners (offline demo model),
 * then, by the server's mode (`GET /api/info`): with accounts, the sign-in page
 * until someone is signed in and a user menu after; without, the API-key prompt
 * when the server requires a key; and the current page.
 */
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { ApiKeyPrompt } from "./components/ApiKeyPrompt";
import { UserMenu } from "./components/UserMenu";
import { errorText } from "./lib/api";
import { getApiKey, setApiKey, useAuth } from "./lib/auth";
import { Link, navigate, parseRoute, usePathname, type Route } from "./lib/router";
import { refreshSession, setAccountsMode, useSession, type Me } from "./lib/session";
import type { ServerInfo } from "./lib/types";
import { ChatPage } from "./pages/ChatPage";
import { FilesPage } from "./pages/FilesPage";
import { LoginPage } from "./pages/LoginPage";
import { McpPage } from "./pages/McpPage";
import { MemoryPage } from "./pages/MemoryPage";
import { SkillsPage } from "./pages/SkillsPage";
import { ThreadsPage } from "./pages/ThreadsPage";

// Pages most visits never open load on demand (their own chunks; the first page stays small).
const AccountPage = lazy(() => import("./pages/AccountPage").then((m) => ({ default: m.AccountPage })));
const AgentsPage = lazy(() => import("./pages/AgentsPage").then((m) => ({ default: m.AgentsPage })));
const UsersPage = lazy(() => import("./pages/UsersPage").then((m) => ({ default: m.UsersPage })));

const NAV: ReadonlyArray<{ page: Route["page"]; to: string; label: string }> = [
  { page: "chat", to: "/chat", label: "Chat" },
  { page: "threads", to: "/threads", label: "Threads" },
  { page: "skills", to: "/skills", label: "Skills" },
  { page: "files", to: "/files", label: "Files" },
  { page: "mcp", to: "/mcp", label: "MCP" },
  { page: "memory", to: "/memory", label: "Memory" },
  { page: "agents", to: "/agents", label: "Agents" },
];

/** Pages outside the main navigation (reached from the user menu), for the document title. */
const MENU_PAGES: ReadonlyArray<{ page: Route["page"]; label: string }> = [
  { page: "account", label: "Account" },
  { page: "users", label: "Users" },
];

function useServerInfo(): { info: ServerInfo | null; error: string | null } {
  const [info, setInfo] = useState<ServerInfo | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    fetch("/api/info", { headers: { accept: "application/json" } })
      .then(async (res) => {
        if (!res.ok) throw new Error(`GET /api/info answered ${res.status}`);
        const body = (await res.json()) as ServerInfo;
        setAccountsMode(body.accounts === true);
        // With accounts the session cookie is the console's credential: a key this tab kept from
        // API-key mode would be sent instead and act as its owner, whoever signs in.
        if (body.accounts === true && getApiKey() !== null) setApiKey(null);
        if (body.accounts === true) await refreshSession();
        setInfo(body);
      })
      .catch((err: unknown) => setError(errorText(err)));
  }, []);
  return { info, error };
}

/** Focuses the page's heading, waiting a few frames for a page whose code is still loading. */
function focusHeading(frames: number): void {
  const heading = document.querySelector<HTMLElement>("main h1");
  if (heading !== null) heading.focus();
  else if (frames > 0) requestAnimationFrame(() => focusHeading(frames - 1));
}

/** A page that needs accounts, on a server without them. */
function NoAccounts() {
  return (
    <section className="page" aria-labelledby="page-title">
      <h1 id="page-title" tabIndex={-1}>
        No accounts on this server
      </h1>
      <p>
        This server runs without user accounts (<code>auth.enabled</code> is off): there is no sign-in, and API keys
        come from <code>server.api_keys</code> in config.yaml. <Link to="/chat">Open the chat</Link>.
      </p>
    </section>
  );
}

function Page({ route, me }: { route: Route; me: Me | null }) {
  switch (route.page) {
    case "chat":
      return <ChatPage threadId={route.params[0] ?? null} />;
    case "agents":
      // `/agents/<name>/chat/<thread>`: the chat with a custom agent (keyed: another agent is another chat).
      if (route.params[0] !== undefined && route.params[1] === "chat")
        return <ChatPage key={route.params[0]} agentName={route.params[0]} threadId={route.params[2] ?? null} />;
      return <AgentsPage name={route.params[0] ?? null} />;
    case "account":
      return me === null ? <NoAccounts /> : <AccountPage me={me} />;
    case "users":
      return me === null ? <NoAccounts /> : <UsersPage me={me} />;
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
  const session = useSession();
  const accounts = info?.accounts === true;
  const me = accounts && session.status === "signed-in" ? session.me : null;
  const needKey = info !== null && !accounts && info.authRequired && (apiKey === null || refused);
  const needLogin = accounts && session.status === "anonymous";
  const label = [...NAV, ...MENU_PAGES].find((n) => n.page === route.page)?.label ?? "Not found";

  useEffect(() => {
    // `/login` is where the server's SSO callback sends refusals: once signed in, it is the chat.
    if (pathname === "/" || (pathname === "/login" && me !== null)) navigate("/chat", { replace: true });
  }, [pathname, me]);

  // A new page: its title, and focus on its heading (screen readers announce the page).
  const firstPage = useRef(true);
  useEffect(() => {
    if (needLogin) return; // The sign-in page sets its own title.
    document.title = `${label} · DeerFlow console`;
    if (firstPage.current) {
      firstPage.current = false;
      return;
    }
    focusHeading(30);
  }, [route.page, label, needLogin]);

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
          {!needLogin && (
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
          )}
          {info !== null && (
            <span className="server-meta">
              server {info.version}
              {!accounts && info.authRequired ? " · key required" : ""}
              {!accounts && apiKey !== null && (
                <>
                  {" · "}
                  <button type="button" className="button-link" onClick={() => setApiKey(null)}>
                    Forget key
                  </button>
                </>
              )}
            </span>
          )}
          {me !== null && <UserMenu me={me} />}
        </div>
        {info?.demoModel === true && (
          <div className="banner banner-demo" role="note" data-testid="demo-banner">
            <strong>Offline demo model.</strong> This server answers with DeerFlow’s built-in demo model (
            <code>{info.defaultModel}</code>): deterministic, canned replies and real tool calls, no real LLM. Configure
            a model in config.yaml for genuine answers.
          </div>
        )}
        {me?.needs_setup === true && (
          <div className="banner banner-demo" role="note" data-testid="needs-setup-banner">
            <strong>Finish setting up this account.</strong> Choose its email and your own password{" "}
            <Link to="/account">on the account page</Link>.
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
        ) : needLogin ? (
          <LoginPage expired={session.status === "anonymous" && session.expired} />
        ) : (info === null && error === null) || (accounts && me === null) ? (
          <p className="muted">Loading…</p>
        ) : (
          <Suspense fallback={<p className="muted">Loading…</p>}>
            <Page route={route} me={me} />
          </Suspense>
        )}
      </main>
    </>
  );
}
