/** A read-only value with a copy button (clipboard API, or selection + execCommand where it is missing). */
import { useState } from 'preact/hooks';
import { Icon } from './icon.js';

async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // fall back below
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.className = 'offscreen';
  document.body.append(area);
  area.select();
  const ok = document.execCommand('copy');
  area.remove();
  return ok;
}

export function CopyField({ label, value, testId }: { label: string; value: string; testId?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  return (
    <div class="copy-field">
      <span class="copy-label">{label}</span>
      <code class="copy-value" data-testid={testId}>
        {value}
      </code>
      <button
        type="button"
        class="icon-button"
        aria-label={`Copy ${label.toLowerCase()}`}
        title={state === 'copied' ? 'Copied' : `Copy ${label.toLowerCase()}`}
        onClick={async () => {
          setState((await copyText(value)) ? 'copied' : 'failed');
          window.setTimeout(() => setState('idle'), 1800);
        }}
      >
        <Icon name={state === 'copied' ? 'check' : 'copy'} />
      </button>
      <span class="visually-hidden" aria-live="polite">
        {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : ''}
      </span>
    </div>
  );
}
