/** Confirms a delete by asking for the skill's name. */
import { useState } from 'preact/hooks';
import { Modal } from './modal.js';

export function ConfirmDelete({
  name,
  where,
  files,
  onConfirm,
  onClose,
}: {
  name: string;
  where: string;
  files: number;
  onConfirm: () => Promise<void>;
  onClose: () => void;
}) {
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const matches = typed.trim() === name;
  return (
    <Modal title={`Delete ${name}?`} labelId="delete-title" onClose={onClose}>
      <form
        class="stack"
        onSubmit={async (event) => {
          event.preventDefault();
          if (!matches) return;
          setBusy(true);
          await onConfirm();
          setBusy(false);
        }}
      >
        <p>
          This removes <strong>{name}</strong> and its {files} {files === 1 ? 'file' : 'files'} from{' '}
          <code>{where}</code>. Agents and people using this root will no longer find it.
        </p>
        <label class="field">
          <span>
            Type <strong>{name}</strong> to confirm
          </span>
          <input
            type="text"
            autoComplete="off"
            spellcheck={false}
            value={typed}
            onInput={(e) => setTyped((e.target as HTMLInputElement).value)}
            // biome-ignore lint/a11y/noAutofocus: the dialog exists to take this one input
            autoFocus
          />
        </label>
        <div class="actions">
          <span class="spacer" />
          <button type="button" class="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" class="button danger" disabled={!matches || busy}>
            {busy ? 'Deleting…' : 'Delete skill'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
