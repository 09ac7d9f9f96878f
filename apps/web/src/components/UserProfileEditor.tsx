/**
 * The signed-in user's profile (`USER.md`, DeerFlow's `/api/user-profile`): what
 * the agents may know about the person they work for, edited as Markdown.
 */
import { useEffect, useState, type FormEvent } from "react";
import { errorText } from "../lib/api";
import { getUserProfile, setUserProfile } from "../lib/agents";
import { useAsyncAction } from "../lib/useAsyncAction";
import { whileLive } from "../lib/whileLive";
import { ErrorAlert } from "./ErrorAlert";

export function UserProfileEditor() {
  const [content, setContent] = useState<string | null>(null);
  const [message, setMessage] = useState("");
  // One error line: a failed load or a refused save.
  const { busy, error, setError, run } = useAsyncAction();

  useEffect(
    () =>
      whileLive(
        getUserProfile(),
        (text) => setContent(text ?? ""),
        (err) => setError(errorText(err)),
      ),
    [setError],
  );

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (content === null) return;
    setMessage("");
    await run(async () => {
      const kept = await setUserProfile(content);
      setContent(kept ?? "");
      setMessage(kept === null ? "Profile cleared." : "Profile saved.");
    });
  };

  if (content === null && error === null) return null;
  return (
    <form className="card stacked-form profile-form" onSubmit={(e) => void save(e)} data-testid="user-profile">
      <h2>Your profile (USER.md)</h2>
      <label htmlFor="user-profile-content">What your agents may know about you (Markdown)</label>
      <textarea
        id="user-profile-content"
        className="soul-editor"
        rows={6}
        value={content ?? ""}
        onChange={(e) => setContent(e.target.value)}
        disabled={content === null}
      />
      <ErrorAlert error={error} />
      <p role="status" className="status-line" data-testid="user-profile-message">
        {message}
      </p>
      <button type="submit" disabled={busy || content === null}>
        Save profile
      </button>
    </form>
  );
}
