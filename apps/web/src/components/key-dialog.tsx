/** Asks for the API key of a keyed server; the key is checked before it is kept (tab only). */
import { useState } from 'preact/hooks';
import { Modal } from './modal.js';

export function KeyDialog({
  reason,
  hasKey,
  onSubmit,
  onForget,
  onClose,
  validate,
}: {
  reason: string;
  hasKey: boolean;
  onSubmit: (key: string) => void;
  onForget: () => void;
  onClose: () => void;
  validate: (key: string) => Promise<string | null>;
}) {
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    const trimmed = key.trim();
    if (!trimmed) {
      setError('Enter a key.');
      return;
    }
    setBusy(true);
    const problem = await validate(trimmed);
    setBusy(false);
    if (problem) setError(problem);
    else onSubmit(trimmed);
  };
  return (
    <Modal title="API key" labelId="key-title" onClose={onClose}>
      <form onSubmit={submit} class="stack">
        {reason && <p class="callout error">{reason}</p>}
        <p class="muted">
          This registry needs an API key. It is kept in this browser tab only (session storage) and sent to
          this server alone.
        </p>
        <label class="field">
          <span>Key</span>
          <input
            type="password"
            autoComplete="off"
            spellcheck={false}
            value={key}
            onInput={(e) => {
              setKey((e.target as HTMLInputElement).value);
              setError(null);
            }}
            aria-invalid={error ? 'true' : undefined}
            aria-describedby={error ? 'key-error' : undefined}
            // biome-ignore lint/a11y/noAutofocus: the dialog exists to take this one input
            autoFocus
          />
        </label>
        {error && (
          <p id="key-error" class="field-error" role="alert">
            {error}
          </p>
        )}
        <div class="actions">
          {hasKey && (
            <button type="button" class="button ghost danger-text" onClick={onForget}>
              Forget key
            </button>
          )}
          <span class="spacer" />
          <button type="button" class="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" class="button primary" disabled={busy}>
            {busy ? 'Checking…' : 'Use key'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
