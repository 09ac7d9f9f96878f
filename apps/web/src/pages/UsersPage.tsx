/**
 * Users (administrators only; the server refuses the routes to others): every
 * account with its role and state; add a user with a first password and a role;
 * change a role; disable (ends the user's sessions) or enable; delete with a
 * confirmation step. The server refuses removing the last administrator or
 * oneself, and its text is shown.
 */
import { useCallback, useEffect, useId, useState, type FormEvent } from "react";
import { USERS_PAGE, createUser, deleteUser, listUsers, updateUser, type UserInfo } from "../lib/accounts";
import { ConfirmButton } from "../components/ConfirmButton";
import { ErrorAlert } from "../components/ErrorAlert";
import { Field } from "../components/Field";
import { TableHead } from "../components/TableHead";
import { errorText, formatTime } from "../lib/api";
import type { Me } from "../lib/session";
import { useAsyncAction } from "../lib/useAsyncAction";

type Role = "admin" | "user";

function UserRow({ user, self, onChanged }: { user: UserInfo; self: boolean; onChanged: (message: string) => void }) {
  const roleId = useId();
  const { busy, error, run } = useAsyncAction();

  const act = (work: () => Promise<unknown>, done: string) =>
    run(async () => {
      await work();
      onChanged(done);
    });

  return (
    <tr data-testid="user-row" data-email={user.email} data-disabled={user.disabled === true ? "true" : "false"}>
      <th scope="row">
        {user.email}
        {self && <span className="muted"> (you)</span>}
      </th>
      <td>
        <label htmlFor={roleId} className="visually-hidden">
          Role of {user.email}
        </label>
        <select
          id={roleId}
          value={user.system_role}
          disabled={busy}
          onChange={(e) =>
            void act(
              () => updateUser(user.id, { system_role: e.target.value as Role }),
              `${user.email} is now ${e.target.value}.`,
            )
          }
        >
          <option value="user">user</option>
          <option value="admin">admin</option>
        </select>
      </td>
      <td>{user.disabled === true ? "disabled" : "active"}</td>
      <td>{user.oauth_provider ?? "password"}</td>
      <td>{formatTime(user.created_at)}</td>
      <td className="actions">
        <span className="inline-form">
          <button
            type="button"
            className="button-quiet"
            disabled={busy}
            onClick={() =>
              void act(
                () => updateUser(user.id, { disabled: user.disabled !== true }),
                `${user.email} ${user.disabled === true ? "enabled" : "disabled"}.`,
              )
            }
          >
            {user.disabled === true ? "Enable" : "Disable"}
            <span className="visually-hidden"> {user.email}</span>
          </button>
          <ConfirmButton
            label="Delete"
            subject={user.email}
            confirmLabel={`Yes, delete ${user.email}`}
            busy={busy}
            onConfirm={() => act(() => deleteUser(user.id), `Deleted ${user.email}.`)}
          />
        </span>
        <ErrorAlert error={error} />
      </td>
    </tr>
  );
}

function NewUserForm({ onCreated }: { onCreated: (message: string) => void }) {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [role, setRole] = useState<Role>("user");
  const { busy, error, run } = useAsyncAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    await run(async () => {
      const created = await createUser(email.trim(), password, role);
      setEmail("");
      setPassword("");
      setRole("user");
      onCreated(`Added ${created.email} (${created.system_role}).`);
    });
  };
  return (
    <form className="card inline-form" onSubmit={(e) => void submit(e)} aria-labelledby="new-user-title">
      <h2 id="new-user-title" className="form-title">
        Add a user
      </h2>
      <Field
        id="new-user-email"
        label="Email"
        type="email"
        autoComplete="off"
        value={email}
        onValue={setEmail}
        required
      />
      <Field
        id="new-user-password"
        label="First password"
        type="password"
        autoComplete="new-password"
        minLength={8}
        value={password}
        onValue={setPassword}
        required
      />
      <label htmlFor="new-user-role">Role</label>
      <select id="new-user-role" value={role} onChange={(e) => setRole(e.target.value as Role)}>
        <option value="user">user</option>
        <option value="admin">admin</option>
      </select>
      <button type="submit" disabled={busy}>
        Add user
      </button>
      <ErrorAlert error={error} testId="new-user-error" />
    </form>
  );
}

/** The administrators' user management page. */
export function UsersPage({ me }: { me: Me }) {
  const [users, setUsers] = useState<UserInfo[] | null>(null);
  const [total, setTotal] = useState(0);
  const [message, setMessage] = useState("");
  const [error, setError] = useState<string | null>(null);

  /** How many users the table shows: a page, more after "Show more users". */
  const [shown, setShown] = useState(USERS_PAGE);

  const load = useCallback(async () => {
    try {
      // The server answers at most 1000 users a call.
      const found: UserInfo[] = [];
      let count = 0;
      for (;;) {
        const page = await listUsers(found.length, Math.min(1000, shown - found.length));
        found.push(...page.users);
        count = page.total;
        if (page.users.length === 0 || found.length >= shown || found.length >= count) break;
      }
      setUsers(found);
      setTotal(count);
      setError(null);
    } catch (err) {
      setError(`Could not load the users: ${errorText(err)}`);
    }
  }, [shown]);
  useEffect(() => void load(), [load]);

  const changed = (text: string) => {
    setMessage(text);
    void load();
  };

  return (
    <section className="page" aria-labelledby="page-title">
      <h1 id="page-title" tabIndex={-1}>
        Users
      </h1>
      {me.system_role !== "admin" ? (
        <p role="alert" className="error">
          Only administrators manage users.
        </p>
      ) : (
        <>
          <NewUserForm onCreated={changed} />
          <ErrorAlert error={error} />
          <p role="status" className="status-line" data-testid="users-message">
            {message}
          </p>
          {users !== null && (
            <table className="table" data-testid="users-table">
              <caption>
                {total} {total === 1 ? "user" : "users"}
              </caption>
              <TableHead columns={["Email", "Role", "State", "Signs in with", "Created"]} actions />
              <tbody>
                {users.map((u) => (
                  <UserRow key={u.id} user={u} self={u.id === me.id} onChanged={changed} />
                ))}
              </tbody>
            </table>
          )}
          {users !== null && users.length < total && (
            <p>
              <span className="muted">
                Showing {users.length} of {total}.
              </span>{" "}
              <button type="button" className="button-quiet" onClick={() => setShown((n) => n + USERS_PAGE)}>
                Show more users
              </button>
            </p>
          )}
        </>
      )}
    </section>
  );
}
