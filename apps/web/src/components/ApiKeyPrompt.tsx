/** Shown when the server requires an API key and this tab has none (or it was refused). */
import { useState, type FormEvent } from "react";
import { setApiKey } from "../lib/auth";
import { Field } from "./Field";

export function ApiKeyPrompt({ refused }: { refused: boolean }) {
  const [key, setKey] = useState("");
  const save = (event: FormEvent) => {
    event.preventDefault();
    if (key.trim() !== "") setApiKey(key.trim());
  };
  return (
    <section className="page key-prompt" aria-labelledby="page-title" data-testid="api-key-prompt">
      <h1 id="page-title" tabIndex={-1}>
        API key required
      </h1>
      <p>
        This server has authentication turned on. Enter one of its API keys (server.api_keys). The key is kept for this
        browser tab only.
      </p>
      {refused && (
        <p role="alert" className="error">
          The server refused the key. Check it and try again.
        </p>
      )}
      <form className="card" onSubmit={save}>
        <input type="text" name="username" autoComplete="username" value="deerflow" readOnly hidden />
        <Field
          id="api-key"
          label="API key"
          type="password"
          autoComplete="current-password"
          value={key}
          onValue={setKey}
          required
          autoFocus
        />
        <button type="submit">Use this key</button>
      </form>
    </section>
  );
}
