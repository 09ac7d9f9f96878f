/** An error's text announced as an alert (`role="alert"`); nothing when there is none. */
export function ErrorAlert({ error, testId }: { error: string | null; testId?: string }) {
  if (error === null) return null;
  return (
    <p role="alert" className="error" data-testid={testId}>
      {error}
    </p>
  );
}
