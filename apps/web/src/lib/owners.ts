/**
 * Who owns a thread, for an administrator's thread lists: the server writes
 * `metadata.owner` (the creator's user id) on threads made by signed-in users,
 * and an administrator can list the users to put emails on those ids.
 */
import type { Thread } from "@langchain/langgraph-sdk";
import { useEffect, useState } from "react";
import { listUsers } from "./accounts";
import { useSession } from "./session";
import { whileLive } from "./whileLive";

/** The owner id of a thread (`metadata.owner`), or `null` (threads from before accounts). */
function threadOwner(thread: Pick<Thread, "metadata">): string | null {
  const owner = (thread.metadata as Record<string, unknown> | null)?.["owner"];
  return typeof owner === "string" && owner !== "" ? owner : null;
}

/**
 * For a signed-in administrator: a function naming a thread's owner ("you", an email, or the
 * id when the user is gone; "—" for no owner). `null` for everyone else (no owner column).
 */
export function useOwnerNames(): ((thread: Pick<Thread, "metadata">) => string) | null {
  const session = useSession();
  const me = session.status === "signed-in" && session.me.system_role === "admin" ? session.me : null;
  const [emails, setEmails] = useState<ReadonlyMap<string, string>>(new Map());
  const myId = me?.id ?? null;
  useEffect(() => {
    if (myId === null) return;
    // The server's largest page: owners beyond it show as ids.
    return whileLive(listUsers(0, 1000), ({ users }) => setEmails(new Map(users.map((u) => [u.id, u.email]))));
  }, [myId]);
  if (myId === null) return null;
  return (thread) => {
    const owner = threadOwner(thread);
    if (owner === null) return "—";
    if (owner === myId) return "you";
    return emails.get(owner) ?? owner;
  };
}
