/**
 * The signed-in user's profile (`USER.md`, DeerFlow's `/api/user-profile`): what
 * the agents may know about the person they work for, edited as Markdown.
 */
import { useEffect, useState, type FormEvent } from "react";
import { errorText } from "../lib/api";
import { getUserProfile, setUserProfile } from "../lib/agents";

export function UserProfileEditor() {
  const [content, setContent] = useState<string | null>(null);
  const [message, setMessage] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    getUserProfile().then(
      (text) => live && setContent(text ?? ""),
      (err: unknown) => live && setError(errorText(err)),
    );
    return () => {
      live = false;
    };
  }, []);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (content === null) return;
    setBusy(true);
    setError(null);
    setMessage("");
    try {
      const kept = await setUserProfile(content);
      setContent(kept ?? "");
      setMessage(kept === null ? "Profile cleared." : "Profile saved.");
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
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
      {error !== null && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <p role="status" className="status-line" data-testid="user-profile-message">
        {message}
      </p>
      <button type="submit" disabled={busy || content === null}>
        Save profile
      </button>
    </form>
  );
}
