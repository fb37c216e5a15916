/**
 * Add or update a skill: drop or pick a folder, a zip or a SKILL.md, or paste/type SKILL.md. The
 * SKILL.md is validated in the page as the reader types (core's validator, as the server's add runs
 * it), located issues are listed before anything is sent, and the upload shows its progress.
 */

import type { NamePolicy, SkillIssue } from '@skillport/core';
import { isApiError, SkillInvalidError } from '@skillport/sdk-browser';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { useApp } from '../app-context.js';
import { Diagnostics } from '../components/diagnostics.js';
import { Icon } from '../components/icon.js';
import { type EditorHandle, SkillEditor } from '../components/skill-editor.js';
import { checkSkill } from '../lib/check-skill.js';
import { describeError } from '../lib/errors.js';
import { formatBytes, rootTarget } from '../lib/format.js';
import { href, skillHref } from '../lib/router.js';
import { createUploadClient } from '../lib/session.js';
import {
  entriesFromFileList,
  type PreparedSkill,
  prepareDrop,
  prepareFolder,
  prepareSingleFile,
  prepareText,
} from '../lib/skill-input.js';

const TEMPLATE = `---
name: my-skill
description: What this skill does and when an agent should use it.
tags: [example]
---

# My skill

Explain, step by step, how the agent should carry out the task.
`;

type Phase =
  | { step: 'idle' }
  | { step: 'preparing' }
  | { step: 'uploading'; loaded: number; total: number }
  | { step: 'processing' }
  | {
      step: 'done';
      name: string;
      rootKind: 'user' | 'agent';
      warnings: SkillIssue[];
      action: 'add' | 'update';
    }
  | { step: 'failed'; message: string; issues: SkillIssue[] };

export function AddPage({ params }: { params: URLSearchParams }) {
  const { client, data, session, reportError } = useApp();
  const updating = params.get('update');
  const rootParam = params.get('root');
  const [rootKind, setRootKind] = useState<'user' | 'agent'>(rootParam === 'agent' ? 'agent' : 'user');
  const [prepared, setPrepared] = useState<PreparedSkill>(() => prepareText(updating ? '' : TEMPLATE));
  const [inputError, setInputError] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const [phase, setPhase] = useState<Phase>({ step: 'idle' });
  const [current, setCurrent] = useState<{ revision: string; exists: boolean } | null>(null);
  const [existing, setExisting] = useState<string | null>(null);
  // The server's name policy: the page judges a name as this server's add will (strict until known).
  const [namePolicy, setNamePolicy] = useState<NamePolicy>('strict');
  const editor = useRef<Partial<EditorHandle>>({});
  const folderInput = useRef<HTMLInputElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  // Update: start from the skill's current SKILL.md.
  useEffect(() => {
    if (!updating) return;
    const controller = new AbortController();
    client
      .getSkill(
        updating,
        { level: 2, include_files: false, target_uri: rootTarget(rootKind) },
        { signal: controller.signal },
      )
      .then((skill) => {
        setPrepared(prepareText(skill.content ?? ''));
        setCurrent({ revision: skill.revision, exists: true });
      })
      .catch((e: unknown) => {
        if (!controller.signal.aborted) reportError(e);
      });
    return () => controller.abort();
  }, [updating, client, reportError, rootKind]);

  useEffect(() => {
    const controller = new AbortController();
    client
      .getLimits({ signal: controller.signal })
      .then((limits) => {
        if (limits.name_policy === 'slug' || limits.name_policy === 'strict')
          setNamePolicy(limits.name_policy);
      })
      .catch(() => {
        // An older server reports no policy: it refuses such names (strict), the default kept here.
      });
    return () => controller.abort();
  }, [client]);

  const check = useMemo(
    () => checkSkill(prepared, updating ?? undefined, namePolicy),
    [prepared, updating, namePolicy],
  );
  const blocked = check.errors.length > 0;

  // On add, say when the name is taken in the chosen root (the add replaces that skill).
  useEffect(() => {
    setExisting(null);
    if (updating || !check.name || blocked) return;
    const controller = new AbortController();
    const timer = window.setTimeout(() => {
      client
        .getSkill(
          check.name ?? '',
          { level: 0, include_files: false, target_uri: rootTarget(rootKind) },
          { signal: controller.signal },
        )
        .then((skill) => setExisting(skill.name))
        .catch(() => setExisting(null));
    }, 300);
    return () => {
      window.clearTimeout(timer);
      controller.abort();
    };
  }, [check.name, blocked, rootKind, updating, client]);

  const take = async (make: () => Promise<PreparedSkill>) => {
    setInputError(null);
    setPhase({ step: 'idle' });
    try {
      setPrepared(await make());
    } catch (e) {
      setInputError(describeError(e));
    }
  };

  const submit = async () => {
    if (blocked) return;
    setPhase({ step: 'preparing' });
    const uploader = createUploadClient((p) => {
      setPhase(
        p.loaded >= p.total
          ? { step: 'processing' }
          : { step: 'uploading', loaded: p.loaded, total: p.total },
      );
    });
    try {
      const source = await prepared.source();
      setPhase({ step: 'uploading', loaded: 0, total: prepared.totalBytes });
      const options = { wait: true, timeout: 120, target_uri: rootTarget(rootKind) };
      const result = updating
        ? await uploader.updateSkill(updating, source, {
            ...options,
            ...(current?.revision && prepared.kind === 'text' ? { ifMatch: current.revision } : {}),
          })
        : await uploader.addSkill(source, options);
      data.invalidate();
      setPhase({
        step: 'done',
        name: result.name,
        rootKind,
        warnings: (result.warnings ?? []) as SkillIssue[],
        action: updating ? 'update' : 'add',
      });
    } catch (e) {
      const issues =
        e instanceof SkillInvalidError && Array.isArray((e.details as { issues?: unknown })?.issues)
          ? ((e.details as { issues: SkillIssue[] }).issues ?? [])
          : [];
      if (isApiError(e) && e.status === 401) reportError(e);
      setPhase({
        step: 'failed',
        message:
          isApiError(e) && e.status === 412
            ? 'The skill changed on the server since this page loaded. Reload to start from the new version.'
            : describeError(e),
        issues,
      });
    } finally {
      uploader.close();
    }
  };

  const busy = phase.step === 'preparing' || phase.step === 'uploading' || phase.step === 'processing';
  const editable = prepared.kind === 'text' || prepared.kind === 'file';

  if (phase.step === 'done') {
    return (
      <section class="add-page">
        <div class="card success-card" data-testid="add-result">
          <Icon name="check" />
          <h1>
            {phase.action === 'update' ? 'Updated' : 'Added'} {phase.name}
          </h1>
          <p class="muted">
            In {phase.rootKind === 'agent' ? 'the shared agent root' : 'your own root'}; processed and
            searchable now.
          </p>
          {phase.warnings.length > 0 && (
            <>
              <h2>Warnings</h2>
              <Diagnostics errors={[]} warnings={phase.warnings} />
            </>
          )}
          <div class="actions">
            <a class="button primary" href={skillHref(phase.name, phase.rootKind)}>
              Open {phase.name}
            </a>
            <a
              class="button"
              href={href('/add')}
              onClick={() => window.setTimeout(() => setPhase({ step: 'idle' }), 0)}
            >
              Add another
            </a>
            <a class="button ghost" href={href('/')}>
              Catalogue
            </a>
          </div>
        </div>
      </section>
    );
  }

  return (
    <section class="add-page">
      <nav class="breadcrumbs" aria-label="Breadcrumb">
        <a href={href('/')}>Catalogue</a>
        <span aria-hidden="true">/</span>
        {updating ? (
          <>
            <a href={skillHref(updating, rootKind)}>{updating}</a>
            <span aria-hidden="true">/</span>
            <span aria-current="page">Update</span>
          </>
        ) : (
          <span aria-current="page">Add a skill</span>
        )}
      </nav>
      <h1>{updating ? `Update ${updating}` : 'Add a skill'}</h1>
      <p class="muted">
        A skill folder (SKILL.md with its auxiliary files), a zip of one, a single SKILL.md, or text typed
        below. It is checked here before anything is sent.
      </p>

      {/* biome-ignore lint/a11y/noStaticElementInteractions: a drop target; keyboard users have the buttons inside */}
      <div
        class={`dropzone ${dragging ? 'dragging' : ''}`}
        data-testid="dropzone"
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(e) => {
          e.preventDefault();
          setDragging(false);
          const transfer = e.dataTransfer;
          if (transfer) void take(() => prepareDrop(transfer));
        }}
      >
        <Icon name="upload" />
        <p>
          <strong>Drop a skill folder, a zip or a SKILL.md here</strong>
        </p>
        <div class="actions center">
          <button type="button" class="button" onClick={() => folderInput.current?.click()} disabled={busy}>
            <Icon name="folder" /> Choose folder
          </button>
          <button type="button" class="button" onClick={() => fileInput.current?.click()} disabled={busy}>
            <Icon name="file" /> Choose zip or SKILL.md
          </button>
          {prepared.kind !== 'text' && (
            <button
              type="button"
              class="button ghost"
              onClick={() => take(async () => prepareText(prepared.skillMd))}
            >
              Edit as text
            </button>
          )}
        </div>
        <input
          type="file"
          class="visually-hidden"
          tabIndex={-1}
          aria-hidden="true"
          data-testid="folder-input"
          ref={(el) => {
            folderInput.current = el;
            // Folder picking: non-standard, supported by every current browser.
            if (el) el.webkitdirectory = true;
          }}
          multiple
          onChange={(e) => {
            const files = (e.target as HTMLInputElement).files;
            if (files && files.length > 0) void take(() => prepareFolder(entriesFromFileList(files)));
            (e.target as HTMLInputElement).value = '';
          }}
        />
        <input
          ref={fileInput}
          type="file"
          class="visually-hidden"
          tabIndex={-1}
          aria-hidden="true"
          accept=".zip,.md,.markdown,text/markdown,application/zip"
          data-testid="file-input"
          onChange={(e) => {
            const file = (e.target as HTMLInputElement).files?.[0];
            if (file) void take(() => prepareSingleFile(file));
            (e.target as HTMLInputElement).value = '';
          }}
        />
      </div>
      {inputError && (
        <p class="callout error" role="alert">
          {inputError}
        </p>
      )}

      <div class="add-layout">
        <div class="add-main">
          <div class="editor-head">
            <h2>
              SKILL.md{' '}
              <span class="muted small">{prepared.kind === 'text' ? '' : `from ${prepared.label}`}</span>
            </h2>
            {!editable && (
              <span class="muted small">
                Read-only: edit the files and pick them again, or “Edit as text”.
              </span>
            )}
          </div>
          <SkillEditor
            handle={editor.current}
            value={prepared.skillMd}
            readOnly={!editable || busy}
            issues={[...check.errors, ...check.warnings]}
            onInput={(value) => setPrepared(prepareText(value))}
            label="SKILL.md"
          />
        </div>
        <aside class="add-side">
          <section
            class={`card verdict ${blocked ? 'bad' : 'good'}`}
            data-testid="verdict"
            aria-live="polite"
          >
            <h2>
              <Icon name={blocked ? 'alert' : 'check'} />
              {blocked
                ? `${check.errors.length} ${check.errors.length === 1 ? 'error' : 'errors'} to fix before upload`
                : check.warnings.length > 0
                  ? `Ready · ${check.warnings.length} ${check.warnings.length === 1 ? 'warning' : 'warnings'}`
                  : 'Ready to upload'}
            </h2>
            {check.name && (
              <p class="small">
                <span class="muted">Name</span> <code>{check.name}</code>
              </p>
            )}
            {existing && !updating && (
              <p class="callout info small">
                A skill named {existing} is already in this root: adding replaces it.
              </p>
            )}
            <Diagnostics
              errors={check.errors}
              warnings={check.warnings}
              onJump={(line, column) => editor.current.jump?.(line, column)}
            />
          </section>

          {prepared.kind !== 'text' && prepared.kind !== 'file' && (
            <section class="card">
              <h2>
                Files <span class="muted small">{prepared.files.length + 1}</span>
              </h2>
              <ul class="file-list" data-testid="upload-files">
                <li>
                  <span class="mono">SKILL.md</span>
                </li>
                {prepared.files.slice(0, 200).map((f) => (
                  <li key={f.path}>
                    <span class="mono">{f.path}</span> <span class="muted small">{formatBytes(f.size)}</span>
                  </li>
                ))}
                {prepared.files.length > 200 && (
                  <li class="muted small">and {prepared.files.length - 200} more</li>
                )}
              </ul>
              {prepared.skipped.length > 0 && (
                <details class="small">
                  <summary>{prepared.skipped.length} left out</summary>
                  <ul>
                    {prepared.skipped.map((s) => (
                      <li key={s.path}>
                        <span class="mono">{s.path}</span> — {s.reason}
                      </li>
                    ))}
                  </ul>
                </details>
              )}
            </section>
          )}

          <section class="card">
            <label class="field">
              <span>Root</span>
              <select
                value={rootKind}
                disabled={Boolean(updating) || busy}
                onChange={(e) => setRootKind((e.target as HTMLSelectElement).value as 'user' | 'agent')}
              >
                <option value="user">Mine{session.user ? ` (${session.user.userId})` : ''}</option>
                <option value="agent">Shared with the account (agent)</option>
              </select>
            </label>
            <button
              type="button"
              class="button primary wide"
              disabled={blocked || busy || !prepared.skillMd.trim()}
              onClick={submit}
              data-testid="submit"
            >
              <Icon name="upload" />
              {updating ? 'Update skill' : 'Add skill'}
            </button>
            {busy && <Progress phase={phase} />}
            {phase.step === 'failed' && (
              <div class="callout error" role="alert" data-testid="upload-error">
                <p>{phase.message}</p>
                {phase.issues.length > 0 && (
                  <Diagnostics
                    errors={phase.issues.filter((i) => i.severity === 'error')}
                    warnings={phase.issues.filter((i) => i.severity !== 'error')}
                  />
                )}
              </div>
            )}
          </section>
        </aside>
      </div>
    </section>
  );
}

function Progress({ phase }: { phase: Phase }) {
  const percent =
    phase.step === 'uploading' && phase.total > 0
      ? Math.round((phase.loaded / phase.total) * 100)
      : phase.step === 'processing'
        ? 100
        : 0;
  const label =
    phase.step === 'preparing'
      ? 'Packing files…'
      : phase.step === 'uploading'
        ? `Uploading… ${percent}%`
        : 'Processing on the server (overview, search index)…';
  return (
    <div class="progress" data-testid="progress">
      <progress max={100} value={phase.step === 'processing' ? undefined : percent} aria-label={label} />
      <p class="small muted" aria-live="polite">
        {label}
      </p>
    </div>
  );
}
