/**
 * The header's user menu (accounts mode): a disclosure button with the signed-in
 * email that opens links to the account page (password, API keys), the users
 * page for administrators, and "Sign out". Escape or a click elsewhere closes it.
 */
import { useEffect, useRef, useState } from "react";
import { logout } from "../lib/accounts";
import { Link } from "../lib/router";
import type { Me } from "../lib/session";

export function UserMenu({ me }: { me: Me }) {
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        setOpen(false);
        buttonRef.current?.focus();
      }
    };
    const onPointer = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("pointerdown", onPointer);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("pointerdown", onPointer);
    };
  }, [open]);

  const close = () => setOpen(false);
  return (
    <div className="user-menu" ref={rootRef} data-testid="user-menu">
      <button
        type="button"
        ref={buttonRef}
        className="button-quiet button-small"
        aria-expanded={open}
        aria-controls="user-menu-panel"
        onClick={() => setOpen((o) => !o)}
      >
        <span className="visually-hidden">Account menu of </span>
        {me.email}
        {me.system_role === "admin" && <span className="badge user-role">admin</span>}
      </button>
      <div id="user-menu-panel" className="user-menu-panel" hidden={!open}>
        <p className="muted user-menu-who">
          Signed in as <strong>{me.email}</strong> ({me.system_role})
        </p>
        <ul>
          <li>
            <Link to="/account" onClick={close}>
              Account and API keys
            </Link>
          </li>
          {me.system_role === "admin" && (
            <li>
              <Link to="/users" onClick={close}>
                Users
              </Link>
            </li>
          )}
          <li>
            <button type="button" className="button-link" onClick={() => void logout()}>
              Sign out
            </button>
          </li>
        </ul>
      </div>
    </div>
  );
}
