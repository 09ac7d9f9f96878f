/**
 * A tiny history router: the path as React state, `navigate()`, and `<Link>`.
 * The server answers every extension-less path with the console (SPA fallback).
 */
import { useSyncExternalStore, type AnchorHTMLAttributes, type MouseEvent } from "react";

const NAVIGATE = "deerflow:navigate";

function subscribe(listener: () => void): () => void {
  window.addEventListener("popstate", listener);
  window.addEventListener(NAVIGATE, listener);
  return () => {
    window.removeEventListener("popstate", listener);
    window.removeEventListener(NAVIGATE, listener);
  };
}

/** The current path (`/chat/abc`). */
export function usePathname(): string {
  return useSyncExternalStore(
    subscribe,
    () => window.location.pathname,
    () => "/",
  );
}

/** Goes to `to` (same origin). */
export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (to === window.location.pathname + window.location.search) return;
  if (options.replace === true) window.history.replaceState(null, "", to);
  else window.history.pushState(null, "", to);
  window.dispatchEvent(new Event(NAVIGATE));
}

/** The route of a path: page name and the segments after it. */
export interface Route {
  readonly page:
    | "chat"
    | "threads"
    | "skills"
    | "files"
    | "mcp"
    | "memory"
    | "agents"
    | "account"
    | "users"
    | "not-found";
  readonly params: readonly string[];
}

/**
 * Parses `/chat/<id>`, `/threads`, `/skills`, `/files/<id>`, `/mcp`, `/memory`,
 * `/agents[/<name>[/chat[/<id>]]]`, `/account`, `/users`; `/` is the chat.
 */
export function parseRoute(pathname: string): Route {
  const parts = pathname
    .split("/")
    .filter((p) => p !== "")
    .map((p) => decodeURIComponent(p));
  const [first, ...rest] = parts;
  if (first === undefined) return { page: "chat", params: [] };
  if (
    first === "chat" ||
    first === "threads" ||
    first === "skills" ||
    first === "files" ||
    first === "mcp" ||
    first === "memory" ||
    first === "agents" ||
    first === "account" ||
    first === "users"
  )
    return { page: first, params: rest };
  return { page: "not-found", params: parts };
}

/** An `<a>` that navigates without reloading (modifier clicks open a new tab as usual). */
export function Link({ to, onClick, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { to: string }) {
  const handle = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (
      event.defaultPrevented ||
      event.button !== 0 ||
      event.metaKey ||
      event.ctrlKey ||
      event.shiftKey ||
      event.altKey
    )
      return;
    event.preventDefault();
    navigate(to);
  };
  return <a href={to} onClick={handle} {...rest} />;
}
