/**
 * Account (accounts mode): who is signed in, changing the password (the server
 * ends the account's other sessions), and the account's API keys for programs:
 * list (name, prefix, created, expires, last used), create (the key is shown
 * once, with a copy button) and revoke (with a confirmation step).
 */
import { useCallback, useEffect, useState, type FormEvent } from "react";
import {
  changePassword,
  createApiKey,
  listApiKeys,
  revokeApiKey,
  type ApiKeyInfo,
  type CreatedApiKey,
} from "../lib/accounts";
import { ConfirmButton } from "../components/ConfirmButton";
import { ErrorAlert } from "../components/ErrorAlert";
import { Field } from "../components/Field";
import { NewPasswordFields } from "../components/NewPasswordFields";
import { TableHead } from "../components/TableHead";
import { errorText, formatTime } from "../lib/api";
import type { Me } from "../lib/session";
import { useAsyncAction } from "../lib/useAsyncAction";

function PasswordForm({ me }: { me: Me }) {
  const [current, setCurrent] = useState("");
  // An account that needs setup chooses its email with its password (DeerFlow's first-login flow).
  const [email, setEmail] = useState(me.email);
  const [next, setNext] = useState("");
  const [confirm, setConfirm] = useState("");
  const [done, setDone] = useState(false);
  const { busy, error, setError, run } = useAsyncAction();

  if (me.oauth_provider !== null && me.oauth_provider !== undefined)
    return <p className="muted">This account signs in with {me.oauth_provider}; its password is managed there.</p>;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setDone(false);
    if (next !== confirm) {
      setError("The two new passwords differ.");
      return;
    }
    const changed = await run(() => changePassword(current, next, me.needs_setup ? email.trim() : undefined));
    if (!changed) return;
    setCurrent("");
    setNext("");
    setConfirm("");
    setDone(true);
  };

  return (
    <form className="card stacked-form" onSubmit={(e) => void submit(e)} data-testid="password-form">
      <h2>Change password</h2>
      {me.needs_setup ? (
        <Field
          id="pw-email"
          label="Email"
          type="email"
          autoComplete="username"
          value={email}
          onValue={setEmail}
          required
        />
      ) : (
        <input type="email" name="username" autoComplete="username" value={me.email} readOnly hidden />
      )}
      <Field
        id="pw-current"
        label="Current password"
        type="password"
        autoComplete="current-password"
        value={current}
        onValue={setCurrent}
        required
      />
      <NewPasswordFields
        idPrefix="pw"
        label="New password"
        repeatLabel="Repeat the new password"
        hint="Your other sessions are signed out."
        password={next}
        repeat={confirm}
        onPassword={setNext}
        onRepeat={setConfirm}
      />
      <ErrorAlert error={error} testId="password-error" />
      {done && (
        <p role="status" className="success" data-testid="password-done">
          Password changed. Your other sessions were signed out.
        </p>
      )}
      <button type="submit" disabled={busy}>
        Change password
      </button>
    </form>
  );
}

function NewKey({ created, onDismiss }: { created: CreatedApiKey; onDismiss: () => void }) {
  const [copied, setCopied] = useState<string | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.key);
      setCopied("Copied to the clipboard.");
    } catch {
      setCopied("The browser refused the clipboard: select the key and copy it.");
    }
  };
  return (
    <div className="card new-key" role="region" aria-labelledby="new-key-title" data-testid="new-api-key">
      <h3 id="new-key-title">Key “{created.name}” created</h3>
      <p>
        Copy it now: this is the only time the server shows it. Send it as{" "}
        <code>Authorization: Bearer &lt;key&gt;</code>.
      </p>
      <div className="inline-form">
        <label htmlFor="new-key-value" className="visually-hidden">
          The new API key
        </label>
        <input
          id="new-key-value"
          className="key-value"
          value={created.key}
          readOnly
          onFocus={(e) => e.target.select()}
          data-testid="new-api-key-value"
        />
        <button type="button" onClick={() => void copy()}>
          Copy key
        </button>
        <button type="button" className="button-quiet" onClick={onDismiss}>
          Done
        </button>
      </div>
      <p role="status" className="muted">
        {copied ?? ""}
      </p>
    </div>
  );
}

function KeyRow({ apiKey, onRevoked }: { apiKey: ApiKeyInfo; onRevoked: (name: string) => void }) {
  // Busy until the list reloads without this row.
  const { busy, error, run } = useAsyncAction({ busyAfterSuccess: true });
  const revoke = () =>
    run(async () => {
      await revokeApiKey(apiKey.id);
      onRevoked(apiKey.name);
    });
  return (
    <tr data-testid="api-key-row" data-key-id={apiKey.id}>
      <th scope="row">{apiKey.name}</th>
      <td>
        <code>{apiKey.prefix}…</code>
      </td>
      <td>{formatTime(apiKey.created_at)}</td>
      <td>{apiKey.expires_at === null ? "never" : formatTime(apiKey.expires_at)}</td>
      <td>{apiKey.last_used_at === null ? "never" : formatTime(apiKey.last_used_at)}</td>
      <td className="actions">
        <span className="inline-form">
          <ConfirmButton
            label="Revoke"
            subject={`“${apiKey.name}”`}
            confirmLabel={`Yes, revoke “${apiKey.name}”`}
            busy={busy}
            onConfirm={revoke}
          />
        </span>
        <ErrorAlert error={error} />
      </td>
    </tr>
  );
}

function ApiKeys() {
  const [keys, setKeys] = useState<ApiKeyInfo[] | null>(null);
  const [name, setName] = useState("");
  const [days, setDays] = useState("");
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [message, setMessage] = useState("");
  // One error line: a failed load or a refused key.
  const { busy, error, setError, run } = useAsyncAction();

  const load = useCallback(async () => {
    try {
      setKeys(await listApiKeys());
      setError(null);
    } catch (err) {
      setError(`Could not load the API keys: ${errorText(err)}`);
    }
  }, [setError]);
  useEffect(() => void load(), [load]);

  const create = async (event: FormEvent) => {
    event.preventDefault();
    setMessage("");
    await run(async () => {
      setCreated(await createApiKey(name.trim(), days.trim() === "" ? null : Number(days)));
      setName("");
      setDays("");
      await load();
    });
  };

  return (
    <section aria-labelledby="api-keys-title">
      <h2 id="api-keys-title">API keys</h2>
      <p className="muted">
        Keys let programs (the LangGraph SDK, scripts) act as you. Revoke a key you no longer use.
      </p>
      <form className="card inline-form" onSubmit={(e) => void create(e)} aria-label="Create an API key">
        <Field id="key-name" label="Name" value={name} onValue={setName} required maxLength={100} />
        <Field
          id="key-days"
          label="Expires after (days, empty: never)"
          type="number"
          min={1}
          max={3650}
          value={days}
          onValue={setDays}
          className="narrow"
        />
        <button type="submit" disabled={busy || name.trim() === ""}>
          Create key
        </button>
      </form>
      {created !== null && <NewKey created={created} onDismiss={() => setCreated(null)} />}
      <ErrorAlert error={error} testId="api-keys-error" />
      <p role="status" className="status-line" data-testid="api-keys-message">
        {message}
      </p>
      {keys !== null && keys.length === 0 && (
        <p className="muted" data-testid="no-api-keys">
          No API keys yet.
        </p>
      )}
      {keys !== null && keys.length > 0 && (
        <table className="table" data-testid="api-keys-table">
          <caption className="visually-hidden">Your API keys</caption>
          <TableHead columns={["Name", "Prefix", "Created", "Expires", "Last used"]} actions />
          <tbody>
            {keys.map((k) => (
              <KeyRow
                key={k.id}
                apiKey={k}
                onRevoked={(n) => {
                  setMessage(`Revoked “${n}”.`);
                  if (created?.id === k.id) setCreated(null);
                  void load();
                }}
              />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** The signed-in user's account page. */
export function AccountPage({ me }: { me: Me }) {
  return (
    <section className="page" aria-labelledby="page-title">
      <h1 id="page-title" tabIndex={-1}>
        Account
      </h1>
      <dl className="facts" data-testid="account-facts">
        <dt>Email</dt>
        <dd>{me.email}</dd>
        <dt>Role</dt>
        <dd>{me.system_role}</dd>
        {me.oauth_provider !== null && me.oauth_provider !== undefined && (
          <>
            <dt>Signs in with</dt>
            <dd>{me.oauth_provider}</dd>
          </>
        )}
      </dl>
      <PasswordForm me={me} />
      <ApiKeys />
    </section>
  );
}
