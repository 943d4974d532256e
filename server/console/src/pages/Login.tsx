import { useState } from "preact/hooks";
import { ApiError, login } from "../api";
import { ErrorBox, Field, asApiError } from "../ui";
import { loadSession, type Session } from "../session";

/** Client id and secret for a token; the secret is sent once and not kept. */
export function Login({ onSignedIn }: { onSignedIn: (session: Session) => void }) {
  const [clientId, setClientId] = useState("");
  const [secret, setSecret] = useState("");
  const [error, setError] = useState<ApiError | undefined>();
  const [busy, setBusy] = useState(false);

  async function submit(e: Event) {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const identity = await login(clientId.trim(), secret);
      setSecret("");
      onSignedIn(await loadSession(identity));
    } catch (err) {
      setError(asApiError(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <main class="login" id="main">
      <h1>Sluice console</h1>
      <p class="muted">Sign in with a principal's client id and secret.</p>
      <form onSubmit={submit} aria-label="Sign in">
        <Field label="Client id" value={clientId} onInput={setClientId} required name="clientId" />
        <Field
          label="Client secret"
          value={secret}
          onInput={setSecret}
          type="password"
          required
          name="clientSecret"
        />
        <ErrorBox error={error} />
        <button type="submit" disabled={busy}>
          {busy ? "Signing in…" : "Sign in"}
        </button>
      </form>
      <p class="muted small">
        The token is kept in this page's memory only: reloading the page signs you out.
      </p>
    </main>
  );
}
