/**
 * Sign-in, shown on any path while nobody is signed in (accounts mode): email
 * and password with "Keep me signed in" (`remember_me`), a button per OIDC
 * provider (coming back to the same page, with the reason when the server refused the
 * SSO login), and, on a server with no user yet, the form that creates the first
 * administrator (`POST /api/v1/auth/initialize`). The page stays where it was:
 * after signing in, the path asked for opens.
 */
import { useEffect, useState, type FormEvent } from "react";
import { initialize, login, providers, register, setupStatus, type Providers } from "../lib/accounts";
import { ErrorAlert } from "../components/ErrorAlert";
import { Field } from "../components/Field";
import { NewPasswordFields } from "../components/NewPasswordFields";
import { errorText } from "../lib/api";
import { navigate } from "../lib/router";
import { useAsyncAction } from "../lib/useAsyncAction";
import { whileLive } from "../lib/whileLive";

/**
 * A new account's form: the first administrator (`initialize`) or self-registration
 * (`register`, refused by the server when `auth.local.allow_registration` is off).
 */
function NewAccountForm({
  kind,
  onDone,
  onCancel,
}: {
  kind: "setup" | "register";
  onDone: () => void;
  onCancel?: () => void;
}) {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const { busy, error, setError, run } = useAsyncAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (password !== confirm) {
      setError("The two passwords differ.");
      return;
    }
    await run(async () => {
      if (kind === "setup") await initialize(email.trim(), password);
      else await register(email.trim(), password);
      onDone();
    });
  };
  return (
    <section
      className="page login-page"
      aria-labelledby="page-title"
      data-testid={kind === "setup" ? "setup-page" : "register-page"}
    >
      <h1 id="page-title" tabIndex={-1}>
        {kind === "setup" ? "Create the administrator" : "Create an account"}
      </h1>
      {kind === "setup" ? (
        <p>This server has no account yet. The first account is its administrator: it can add the other users.</p>
      ) : (
        <p>Your own account on this server: your threads, files, memory and agents are yours alone.</p>
      )}
      <form className="card login-form" onSubmit={(e) => void submit(e)}>
        <Field
          id="setup-email"
          label="Email"
          type="email"
          autoComplete="username"
          value={email}
          onValue={setEmail}
          required
          autoFocus
        />
        <NewPasswordFields
          idPrefix="setup"
          label="Password"
          repeatLabel="Repeat the password"
          password={password}
          repeat={confirm}
          onPassword={setPassword}
          onRepeat={setConfirm}
        />
        <ErrorAlert error={error} testId="login-error" />
        <button type="submit" disabled={busy}>
          {kind === "setup" ? "Create administrator" : "Create account"}
        </button>
      </form>
      {onCancel !== undefined && (
        <p>
          <button type="button" className="button-link" onClick={onCancel}>
            Back to sign-in
          </button>
        </p>
      )}
    </section>
  );
}

/** The sign-in page's text for the `error` the SSO callback redirects with (`/login?error=sso_…`). */
const SSO_ERRORS: Readonly<Record<string, string>> = {
  sso_failed: "Single sign-on failed. Try again, or sign in with your password.",
  sso_not_allowed:
    "Your single sign-on account is not allowed on this server (an unverified email, another email domain, or sign-up closed). Ask your administrator.",
  sso_account_exists:
    "An account with this email already exists and is not linked to single sign-on. Sign in with its password, or ask your administrator.",
};

/**
 * The query of an SSO login: come back to the page asked for (not the sign-in page the
 * callback sends refusals to) with the "Keep me signed in" choice.
 */
function ssoQuery(remember: boolean): string {
  const { pathname, search } = window.location;
  const next = pathname === "/login" ? "/" : `${pathname}${search}`;
  return new URLSearchParams({ next, remember_me: String(remember) }).toString();
}

function LoginForm({
  expired,
  sso,
  onRegister,
}: {
  expired: boolean;
  sso: Providers["oidc"];
  /** Absent when the server has self-registration off. */
  onRegister?: () => void;
}) {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [remember, setRemember] = useState(true);
  // Busy until the console replaces this page.
  const { busy, error, run } = useAsyncAction({ busyAfterSuccess: true });
  const ssoError = SSO_ERRORS[new URLSearchParams(window.location.search).get("error") ?? ""];
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    await run(async () => {
      await login(email.trim(), password, remember);
      // Signed in after a refused SSO login: leave the sign-in address it came back to.
      if (window.location.pathname === "/login") navigate("/", { replace: true });
    });
  };
  return (
    <section className="page login-page" aria-labelledby="page-title" data-testid="login-page">
      <h1 id="page-title" tabIndex={-1}>
        Sign in
      </h1>
      {expired && (
        <p role="status" className="muted" data-testid="session-expired">
          Your session ended. Sign in again to continue.
        </p>
      )}
      <ErrorAlert error={ssoError ?? null} testId="sso-error" />
      <form className="card login-form" onSubmit={(e) => void submit(e)}>
        <Field
          id="login-email"
          label="Email"
          type="email"
          autoComplete="username"
          value={email}
          onValue={setEmail}
          required
          autoFocus
        />
        <Field
          id="login-password"
          label="Password"
          type="password"
          autoComplete="current-password"
          value={password}
          onValue={setPassword}
          required
        />
        <label className="toggle">
          <input type="checkbox" checked={remember} onChange={(e) => setRemember(e.target.checked)} />
          Keep me signed in
        </label>
        <ErrorAlert error={error} testId="login-error" />
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
      {sso.length > 0 && (
        <div className="card login-sso" data-testid="login-sso">
          <h2>Single sign-on</h2>
          <ul className="button-row">
            {sso.map((p) => (
              <li key={p.id}>
                <a className="button" href={`/api/v1/auth/oauth/${encodeURIComponent(p.id)}?${ssoQuery(remember)}`}>
                  Sign in with {p.display_name}
                </a>
              </li>
            ))}
          </ul>
        </div>
      )}
      {onRegister !== undefined && (
        <p>
          No account yet?{" "}
          <button type="button" className="button-link" onClick={onRegister}>
            Create an account
          </button>
        </p>
      )}
    </section>
  );
}

/** The sign-in page (or first-run setup); `expired` says a session just ended. */
export function LoginPage({ expired }: { expired: boolean }) {
  const [setup, setSetup] = useState<boolean | null>(null);
  const [registering, setRegistering] = useState(false);
  const [canRegister, setCanRegister] = useState(false);
  const [sso, setSso] = useState<Providers["oidc"]>([]);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const stopStatus = whileLive(
      setupStatus(),
      (status) => {
        setSetup(status.needs_setup);
        // A server that does not say may still allow it: the form then shows its refusal.
        setCanRegister(status.registration_enabled !== false);
      },
      (err) => setError(`Cannot ask the server whether it is set up: ${errorText(err)}`),
    );
    // Without providers the form still works: local login is always offered.
    const stopProviders = whileLive(providers(), (p) => setSso(p.oidc ?? []));
    return () => {
      stopStatus();
      stopProviders();
    };
  }, []);

  useEffect(() => {
    document.title = `${setup === true ? "Set up" : registering ? "Create an account" : "Sign in"} · DeerFlow console`;
  }, [setup, registering]);

  if (error !== null) return <ErrorAlert error={error} />;
  if (setup === null) return <p className="muted">Loading…</p>;
  if (setup) return <NewAccountForm kind="setup" onDone={() => setSetup(false)} />;
  if (registering)
    return (
      <NewAccountForm kind="register" onDone={() => setRegistering(false)} onCancel={() => setRegistering(false)} />
    );
  return <LoginForm expired={expired} sso={sso} {...(canRegister ? { onRegister: () => setRegistering(true) } : {})} />;
}
