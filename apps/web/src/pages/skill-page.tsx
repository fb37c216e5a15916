/**
 * One skill: L2 (SKILL.md body), L1 (overview) and L0 (abstract) rendered, the raw source, the
 * frontmatter, files with sizes, viewing and download, revision history (when the server has it),
 * copy buttons for the install command and the URI, update and delete. A history entry opens that
 * revision read-only (`?revision=`): its SKILL.md, levels and files as the server keeps them, an
 * install command pinned to it, and no update or delete (restoring is an API / CLI action).
 */
import { parseSkillMd } from '@skillport/core';
import { type ApiError, ConflictError } from '@skillport/sdk-browser';
import type { JSX } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { useApp } from '../app-context.js';
import { ConfirmDelete } from '../components/confirm-delete.js';
import { CopyField } from '../components/copy-field.js';
import { Icon } from '../components/icon.js';
import { MarkdownView } from '../components/markdown-view.js';
import { describeError, isAbort } from '../lib/errors.js';
import { formatBytes, formatDate, formatRelative, rootKind, rootTarget } from '../lib/format.js';
import { href, navigate, restoreScroll, skillHref } from '../lib/router.js';

type Skill = Awaited<ReturnType<ReturnType<typeof useApp>['client']['getSkill']>>;
type SkillFile = NonNullable<Skill['files']>[number];

const TABS = [
  { id: 'skill', label: 'SKILL.md', level: 'L2' },
  { id: 'overview', label: 'Overview', level: 'L1' },
  { id: 'abstract', label: 'Abstract', level: 'L0' },
  { id: 'source', label: 'Source', level: '' },
] as const;
type TabId = (typeof TABS)[number]['id'];

interface Revision {
  revision: string;
  created_at?: string;
  size?: number;
  /** True on the entry that is current (a restored revision appears again, newest first). */
  current?: boolean;
  [key: string]: unknown;
}

/** False once the server answered that it has no revisions route. */
let revisionsSupported = true;

export function SkillPage({ name, params }: { name: string; params: URLSearchParams }) {
  const { client, data, notify, reportError } = useApp();
  const rootParam = params.get('root');
  const kind = rootParam === 'agent' || rootParam === 'user' ? rootParam : null;
  const tabParam = params.get('tab');
  const tab: TabId = TABS.some((t) => t.id === tabParam) ? (tabParam as TabId) : 'skill';
  const openFile = params.get('file');
  // A past revision, read-only; the current skill when absent.
  const revision = params.get('revision')?.trim() || null;
  const [skill, setSkill] = useState<Skill | null>(null);
  const [error, setError] = useState<ApiError | Error | null>(null);
  const [revisions, setRevisions] = useState<Revision[] | null>(null);
  const [confirming, setConfirming] = useState(false);
  // Bumped by "Try again" after a failed load (the server was down or restarting).
  const [attempt, setAttempt] = useState(0);
  const headingRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    const controller = new AbortController();
    setSkill(null);
    setError(null);
    setRevisions(null);
    client
      .getSkill(
        name,
        { ...(kind ? { target_uri: rootTarget(kind) } : {}), ...(revision ? { revision } : {}) },
        { signal: controller.signal },
      )
      .then((result) => {
        setSkill(result);
        document.title = `${result.name}${revision ? ` @ ${revision.slice(0, 10)}` : ''} · Skillport`;
        // Revision history, where the server offers it (asked until a server says it has no such route).
        if (!revisionsSupported) return;
        client
          .request<{ revisions?: Revision[] }>(
            'GET',
            `api/v1/skills/${encodeURIComponent(result.name)}/revisions`,
            {
              query: { target_uri: result.root_uri },
              signal: controller.signal,
            },
          )
          .then((r) => setRevisions(Array.isArray(r?.revisions) ? r.revisions : null))
          .catch((e: unknown) => {
            // A 404 without skill details is the server's answer to an unknown route.
            const details = (e as ApiError).details as { type?: unknown } | undefined;
            if ((e as ApiError).status === 404 && details?.type !== 'skill') revisionsSupported = false;
            setRevisions(null);
          });
      })
      .catch((e: unknown) => {
        if (isAbort(e) || controller.signal.aborted) return;
        setError(e as Error);
        if (!((e as ApiError).status === 404)) reportError(e);
      });
    return () => {
      controller.abort();
      document.title = 'Skillport';
    };
  }, [name, kind, revision, client, reportError, attempt]);

  // Once the skill is shown, focus moves to its name (the link that opened it is gone), so a keyboard
  // continues from the top of the skill and a screen reader announces which skill opened. The heading
  // exists only after this render: focusing it when the answer arrived found nothing.
  const shownKey = skill ? `${skill.root_uri}/${skill.name}@${skill.revision}` : null;
  useEffect(() => {
    if (shownKey === null) return;
    headingRef.current?.focus({ preventScroll: true });
    restoreScroll();
  }, [shownKey]);

  const parsed = useMemo(() => (skill?.content ? parseSkillMd(skill.content).skill : null), [skill?.content]);

  if (error) {
    const missing = (error as ApiError).status === 404;
    // A 404 naming the skill (`details.type` "skill") means the skill is gone, else the revision is.
    const details = (error as ApiError).details as { type?: unknown } | undefined;
    if (missing && revision && details?.type !== 'skill') {
      return (
        <section class="empty-state">
          <h1>
            “<bdi>{name}</bdi>” has no revision {revision.slice(0, 12)}
          </h1>
          <p class="muted">
            The server no longer keeps it (see its retention settings), or it never existed.
          </p>
          <a class="button" href={skillHref(name, kind)}>
            Open the current revision
          </a>
        </section>
      );
    }
    return (
      <section class="empty-state">
        <h1>
          {missing ? (
            <>
              No skill named “<bdi>{name}</bdi>”
            </>
          ) : (
            'Could not load this skill'
          )}
        </h1>
        <p class="muted">{missing ? 'It may have been deleted or renamed.' : describeError(error)}</p>
        <div class="empty-actions">
          {!missing && (
            <button type="button" class="button primary" onClick={() => setAttempt((n) => n + 1)}>
              Try again
            </button>
          )}
          <a class="button" href={href('/')}>
            Back to the catalogue
          </a>
        </div>
      </section>
    );
  }
  if (!skill) {
    return (
      <p class="loading-line" aria-live="polite">
        Loading {name}…
      </p>
    );
  }

  const skillKind = rootKind(skill.root_uri);
  const targetUri = skill.root_uri;
  const files = (skill.files ?? []).filter((f) => !f.is_dir);
  const auxiliary = files.filter((f) => f.kind === 'auxiliary');
  // A past revision: the revision asked for is shown read-only (the current one is not "past").
  const current = revisions?.find((r, index) =>
    typeof r.current === 'boolean' ? r.current : index === 0 && r.revision === skill.revision,
  );
  const past = revision !== null && (current === undefined || current.revision !== skill.revision);
  // Options first; a name starting with "-" after "--", or the command line reads it as an option.
  const install = `skillport install${skillKind === 'agent' ? ' --target viking://agent/skills' : ''} ${
    skill.name.startsWith('-') ? '-- ' : ''
  }${skill.name}${past ? `@${skill.revision.slice(0, 12)}` : ''}`;
  const tabLink = (id: TabId) => skillHref(skill.name, kind, { tab: id === 'skill' ? null : id, revision });
  const fileLink = (path: string | null) =>
    skillHref(skill.name, kind, { tab: tab === 'skill' ? null : tab, file: path, revision });
  const skillRef = { name: skill.name, targetUri, revision };

  const remove = async () => {
    try {
      await client.deleteSkill(skill.name, { target_uri: targetUri }, { ifMatch: skill.revision });
      data.invalidate();
      notify(`Deleted ${skill.name}`);
      setConfirming(false);
      navigate(href('/'));
    } catch (e) {
      setConfirming(false);
      if (e instanceof ConflictError)
        notify(`${skill.name} changed since this page loaded; reload it and try again.`, 'error');
      else reportError(e);
    }
  };

  return (
    <article class="skill-page">
      <nav class="breadcrumbs" aria-label="Breadcrumb">
        <a href={href('/')}>Catalogue</a>
        <span aria-hidden="true">/</span>
        {revision ? (
          <>
            <a href={skillHref(skill.name, kind)}>{skill.name}</a>
            <span aria-hidden="true">/</span>
            <span aria-current="page" class="mono">
              rev {skill.revision.slice(0, 10)}
            </span>
          </>
        ) : (
          <span aria-current="page">{skill.name}</span>
        )}
      </nav>
      {past && (
        <p class="past-revision" role="status" data-testid="past-revision">
          <Icon name="history" /> A past revision ({skill.revision.slice(0, 10)},{' '}
          {formatDate(skill.updated_at)}
          ), read-only. <a href={skillHref(skill.name, kind)}>Open the current revision</a>
        </p>
      )}

      <header class="skill-header">
        <div class="skill-title">
          <h1 ref={headingRef} tabIndex={-1}>
            {skill.name}
          </h1>
          <span class={`root-badge ${skillKind}`} title={skill.root_uri}>
            <Icon name={skillKind === 'agent' ? 'users' : 'user'} />
            {skillKind === 'agent' ? 'shared' : 'mine'}
          </span>
        </div>
        <p class="skill-description" data-testid="skill-description">
          {skill.description}
        </p>
        <div class="skill-meta">
          {skill.tags.map((tag) => (
            <a key={tag} class="tag" dir="auto" href={href('/', { tag })}>
              {tag}
            </a>
          ))}
          <span class="muted small" title={formatDate(skill.updated_at)}>
            updated {formatRelative(skill.updated_at)}
          </span>
          <span class="muted small mono" title={`Revision ${skill.revision}`}>
            rev {skill.revision.slice(0, 10)}
          </span>
        </div>
        {!past && (
          <div class="skill-actions">
            <a class="button" href={href('/add', { update: skill.name, root: skillKind })}>
              <Icon name="edit" /> Update
            </a>
            <button type="button" class="button danger-outline" onClick={() => setConfirming(true)}>
              <Icon name="trash" /> Delete
            </button>
          </div>
        )}
      </header>

      <div class="skill-layout">
        <div class="skill-main">
          <div class="tabs" role="tablist" aria-label="Skill levels" onKeyDown={tabKeys}>
            {TABS.map((t) => (
              <a
                key={t.id}
                role="tab"
                href={tabLink(t.id)}
                aria-selected={tab === t.id ? 'true' : 'false'}
                tabIndex={tab === t.id ? 0 : -1}
                id={`tab-${t.id}`}
                aria-controls="tab-panel"
                onClick={(e) => {
                  e.preventDefault();
                  navigate(tabLink(t.id), { replace: true });
                }}
              >
                {t.label}
                {t.level && <span class="level">{t.level}</span>}
              </a>
            ))}
          </div>
          <section id="tab-panel" role="tabpanel" aria-labelledby={`tab-${tab}`} class="panel">
            {tab === 'skill' && (
              <MarkdownView
                source={parsed?.body ?? skill.content ?? ''}
                skill={skillRef}
                onOpenFile={(path) => navigate(fileLink(path))}
                testId="skill-body"
              />
            )}
            {tab === 'overview' && <MarkdownView source={skill.overview ?? ''} testId="skill-overview" />}
            {tab === 'abstract' && <MarkdownView source={skill.abstract ?? ''} testId="skill-abstract" />}
            {tab === 'source' && (
              <pre class="source" data-testid="skill-source">
                <code>{skill.content}</code>
              </pre>
            )}
          </section>
          {openFile && (
            <FileViewer
              skill={skillRef}
              path={openFile}
              file={files.find((f) => f.path === openFile) ?? null}
              onClose={() => navigate(fileLink(null))}
              onOpenFile={(path) => navigate(fileLink(path))}
            />
          )}
        </div>

        <aside class="skill-side">
          <section class="card">
            <h2>Use it</h2>
            <CopyField label="Install" value={install} testId="install-command" />
            <CopyField label="URI" value={skill.uri} testId="skill-uri" />
          </section>

          <section class="card">
            <h2>Frontmatter</h2>
            <FrontmatterTable frontmatter={skill.frontmatter} />
          </section>

          <section class="card">
            <h2>
              Files <span class="muted small">{files.length}</span>
            </h2>
            <FileTable files={files} skill={skillRef} fileLink={fileLink} onError={reportError} />
            {auxiliary.length === 0 && (
              <p class="muted small">No auxiliary files: the skill is its SKILL.md.</p>
            )}
          </section>

          {revisions && revisions.length > 0 && (
            <section class="card">
              <h2>
                <Icon name="history" /> History
              </h2>
              <ol class="revisions" data-testid="revisions">
                {revisions.slice(0, 20).map((r, index) => {
                  // A restore writes an earlier revision anew: one revision id may appear twice.
                  const isCurrent = r === current;
                  const shown = r.revision === skill.revision && (revision !== null) === !isCurrent;
                  return (
                    <li key={`${index}:${r.revision}`}>
                      <a
                        class="mono"
                        href={skillHref(skill.name, kind, { revision: isCurrent ? null : r.revision })}
                        aria-current={shown ? 'page' : undefined}
                        title={
                          isCurrent ? 'Open the current revision' : `Open revision ${r.revision} (read-only)`
                        }
                      >
                        {r.revision.slice(0, 10)}
                      </a>
                      {isCurrent && <span class="tag">current</span>}
                      {r.created_at && (
                        <span class="muted small" title={formatDate(r.created_at)}>
                          {formatRelative(r.created_at)}
                        </span>
                      )}
                      {typeof r.size === 'number' && <span class="muted small">{formatBytes(r.size)}</span>}
                    </li>
                  );
                })}
              </ol>
            </section>
          )}
        </aside>
      </div>

      {confirming && (
        <ConfirmDelete
          name={skill.name}
          where={skill.root_uri}
          files={files.filter((f) => f.kind !== 'summary').length}
          onConfirm={remove}
          onClose={() => setConfirming(false)}
        />
      )}
    </article>
  );
}

/** Arrow keys move between tabs (WAI-ARIA tabs pattern). */
function tabKeys(event: KeyboardEvent) {
  if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft' && event.key !== 'Home' && event.key !== 'End')
    return;
  const tabs = Array.from(
    (event.currentTarget as HTMLElement).querySelectorAll<HTMLAnchorElement>('[role="tab"]'),
  );
  const index = tabs.indexOf(document.activeElement as HTMLAnchorElement);
  const next =
    event.key === 'Home'
      ? 0
      : event.key === 'End'
        ? tabs.length - 1
        : (index + (event.key === 'ArrowRight' ? 1 : -1) + tabs.length) % tabs.length;
  event.preventDefault();
  tabs[next]?.focus();
  tabs[next]?.click();
}

function renderValue(value: unknown): JSX.Element {
  if (value === null || value === undefined) return <span class="muted">null</span>;
  if (Array.isArray(value)) {
    if (value.every((v) => typeof v !== 'object' || v === null)) {
      return (
        <span class="value-list">
          {value.map((v, i) => (
            <code key={i}>{String(v)}</code>
          ))}
        </span>
      );
    }
    return <pre class="value-json">{JSON.stringify(value, null, 2)}</pre>;
  }
  if (typeof value === 'object') return <pre class="value-json">{JSON.stringify(value, null, 2)}</pre>;
  return <span class="value-text">{String(value)}</span>;
}

function FrontmatterTable({ frontmatter }: { frontmatter: Record<string, unknown> }) {
  const entries = Object.entries(frontmatter);
  if (entries.length === 0) return <p class="muted small">No frontmatter keys.</p>;
  return (
    <table class="kv" data-testid="frontmatter">
      <tbody>
        {entries.map(([key, value]) => (
          <tr key={key}>
            <th scope="row">{key}</th>
            <td>{renderValue(value)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The skill a file belongs to: its name, root and, for a past revision, that revision. */
interface SkillRef {
  name: string;
  targetUri: string;
  revision: string | null;
}

const fileParams = (skill: SkillRef) => ({
  target_uri: skill.targetUri,
  ...(skill.revision ? { revision: skill.revision } : {}),
});

async function download(
  client: ReturnType<typeof useApp>['client'],
  skill: SkillRef,
  path: string,
): Promise<void> {
  const file = await client.getSkillFile(skill.name, path, fileParams(skill));
  const url = URL.createObjectURL(
    new Blob([file.bytes as Uint8Array<ArrayBuffer>], { type: 'application/octet-stream' }),
  );
  const link = document.createElement('a');
  link.href = url;
  link.download = path.slice(path.lastIndexOf('/') + 1);
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 30_000);
}

function FileTable({
  files,
  skill,
  fileLink,
  onError,
}: {
  files: SkillFile[];
  skill: SkillRef;
  fileLink: (path: string | null) => string;
  onError: (error: unknown) => void;
}) {
  const { client } = useApp();
  return (
    <table class="files" data-testid="files">
      <thead>
        <tr>
          <th scope="col">Path</th>
          <th scope="col" class="num">
            Size
          </th>
          <th scope="col">
            <span class="visually-hidden">Download</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {files.map((f) => (
          <tr key={f.path} data-path={f.path}>
            <td>
              <a href={fileLink(f.path)} class="file-link" title={`${f.kind} · sha-256 ${f.sha256 ?? ''}`}>
                <Icon name="file" />
                <span>{f.path}</span>
              </a>
              {f.kind === 'summary' && <span class="muted small"> generated</span>}
            </td>
            <td class="num muted small">{formatBytes(f.size)}</td>
            <td class="num">
              <button
                type="button"
                class="icon-button"
                aria-label={`Download ${f.path}`}
                title={`Download ${f.path}`}
                onClick={() => download(client, skill, f.path).catch(onError)}
              >
                <Icon name="download" />
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const TEXT_LIMIT = 512 * 1024;

function FileViewer({
  skill,
  path,
  file,
  onClose,
  onOpenFile,
}: {
  skill: SkillRef;
  path: string;
  file: SkillFile | null;
  onClose: () => void;
  onOpenFile: (path: string) => void;
}) {
  const { client, reportError } = useApp();
  const [text, setText] = useState<string | null>(null);
  const [state, setState] = useState<'loading' | 'text' | 'binary' | 'large' | 'missing'>('loading');
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    const controller = new AbortController();
    setState('loading');
    setText(null);
    if (!file) {
      setState('missing');
      return;
    }
    if (file.size > TEXT_LIMIT) {
      setState('large');
      return;
    }
    client
      .getSkillFile(skill.name, path, fileParams(skill), { signal: controller.signal })
      .then((result) => {
        const bytes = result.bytes;
        if (bytes.includes(0)) {
          setState('binary');
          return;
        }
        try {
          setText(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
          setState('text');
        } catch {
          setState('binary');
        }
        ref.current?.scrollIntoView({ block: 'nearest' });
      })
      .catch((e: unknown) => {
        if (!isAbort(e)) reportError(e);
      });
    return () => controller.abort();
  }, [skill.name, skill.targetUri, skill.revision, path, file, client, reportError]);
  const dir = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
  return (
    <section class="card file-viewer" ref={ref} aria-label={`File ${path}`} data-testid="file-viewer">
      <header class="file-viewer-head">
        <h2 class="mono">{path}</h2>
        {file && <span class="muted small">{formatBytes(file.size)}</span>}
        <span class="spacer" />
        {file && (
          <button
            type="button"
            class="button small"
            onClick={() => download(client, skill, path).catch(reportError)}
          >
            <Icon name="download" /> Download
          </button>
        )}
        <button type="button" class="icon-button" aria-label="Close file" onClick={onClose}>
          <Icon name="x" />
        </button>
      </header>
      {state === 'loading' && <p class="muted">Loading…</p>}
      {state === 'missing' && <p class="muted">This skill has no file {path}.</p>}
      {state === 'large' && <p class="muted">Too large to show here; download it instead.</p>}
      {state === 'binary' && <p class="muted">A binary file; download it to open it.</p>}
      {state === 'text' &&
        text !== null &&
        (/\.(md|markdown)$/i.test(path) ? (
          <MarkdownView source={text} fromDir={dir} skill={skill} onOpenFile={onOpenFile} />
        ) : (
          <pre class="source">
            <code>{text}</code>
          </pre>
        ))}
    </section>
  );
}
