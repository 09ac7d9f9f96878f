/**
 * A link to a thread file (`/api/threads/<id>/artifacts/...`). Without an API key it is a plain
 * link; with one, the file is fetched with the key and saved (or opened) from a blob, since a
 * plain link cannot carry the Authorization header.
 */
import { apiFetch, errorText } from "../lib/api";
import { useAuth } from "../lib/auth";

export function FileLink({
  url,
  name,
  download = false,
  label,
}: {
  url: string;
  name: string;
  download?: boolean;
  label?: string;
}) {
  const { apiKey } = useAuth();
  const href = download ? `${url}?download=true` : url;
  const text = label ?? name;
  const aria = download ? `Download ${name}` : undefined;
  if (apiKey === null) {
    return download ? (
      <a href={href} download={name} aria-label={aria}>
        {text}
      </a>
    ) : (
      <a href={href} target="_blank" rel="noopener">
        {text}
      </a>
    );
  }
  const open = async () => {
    try {
      const res = await apiFetch(href.replace(/^\/api/, ""));
      const blobUrl = URL.createObjectURL(await res.blob());
      const a = document.createElement("a");
      a.href = blobUrl;
      if (download) a.download = name;
      else a.target = "_blank";
      a.click();
      setTimeout(() => URL.revokeObjectURL(blobUrl), 60_000);
    } catch (err) {
      window.alert(`Could not fetch ${name}: ${errorText(err)}`);
    }
  };
  return (
    <button type="button" className="button-link" onClick={() => void open()} aria-label={aria}>
      {text}
    </button>
  );
}
