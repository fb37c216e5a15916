/**
 * `install`, `installed`, `outdated`, `update`, `uninstall`: skills from the registry into agents'
 * skills folders, pinned in `skillport-lock.json` (see `internal/lock-file.ts`).
 */
import { isApiError } from '@skillport/sdk-node';
import type { Command } from 'commander';
import pMap from 'p-map';
import { AGENTS, displayFolder, type InstallScope, skillsFolder } from '../internal/agents.js';
import { type Context, createContext, type GlobalOptions } from '../internal/context.js';
import {
  type AgentChoice,
  agentsAt,
  blocksLock,
  ClientPool,
  caseTwin,
  chooseAgents,
  type FolderOutcome,
  foldersOf,
  installIntoFolders,
  lockEntry,
  openWorkspace,
  parseSkillSpec,
  resolveFolder,
  type Workspace,
} from '../internal/installer.js';
import { EXIT_INTERRUPTED, type StopRequest, withGracefulStop } from '../internal/interrupt.js';
import { CliError, type CliIo, EXIT, printJson } from '../internal/io.js';
import { type LockedSkill, saveLock } from '../internal/lock-file.js';
import { nameArgs } from '../internal/name-arg.js';
import { withProgress } from '../internal/progress.js';
import { resolveRemoteSkill } from '../internal/remote-skill.js';
import { describeState, readFolderState, removeSkillFolder } from '../internal/skill-folder.js';
import { renderTable } from '../internal/table.js';
import { escapeInlineControls } from '../internal/terminal-text.js';

/** Skills worked on at once. */
const SKILL_CONCURRENCY = 4;

interface ScopeOptions {
  agent?: string[];
  global?: boolean;
  force?: boolean;
}

function short(revision: string | undefined | null): string {
  return revision ? revision.slice(0, 12) : '';
}

/**
 * What moving from one locked file list to another changes, for the DETAIL column: e.g.
 * `SKILL.md changed, 1 file added, 2 removed`, or `same files` when only the revision differs.
 */
export function describeFileChanges(
  before: ReadonlyArray<{ path: string; sha256: string; executable?: boolean | undefined }>,
  after: ReadonlyArray<{ path: string; sha256: string; executable?: boolean | undefined }>,
): string {
  const old = new Map(before.map((f) => [f.path, f]));
  const now = new Set(after.map((f) => f.path));
  let added = 0;
  let modes = 0;
  const changed: string[] = [];
  for (const file of after) {
    const was = old.get(file.path);
    if (was === undefined) added++;
    else if (was.sha256 !== file.sha256) changed.push(file.path);
    else if ((was.executable === true) !== (file.executable === true)) modes++;
  }
  const removed = before.filter((f) => !now.has(f.path)).length;
  const parts: string[] = [];
  if (changed.length > 0) {
    parts.push(
      changed.length === 1 && changed[0] === 'SKILL.md'
        ? 'SKILL.md changed'
        : `${changed.length} file${changed.length === 1 ? '' : 's'} changed${changed.includes('SKILL.md') ? ' (SKILL.md too)' : ''}`,
    );
  }
  if (modes > 0) parts.push(`${modes} file${modes === 1 ? '' : 's'} made executable or not`);
  if (added > 0) parts.push(`${added} file${added === 1 ? '' : 's'} added`);
  if (removed > 0) parts.push(`${removed} file${removed === 1 ? '' : 's'} removed`);
  return parts.length > 0 ? parts.join(', ') : 'same files';
}

function pool(io: CliIo, command: Command): ClientPool {
  const flags = command.optsWithGlobals<GlobalOptions>();
  return new ClientPool(io, { url: flags.url, apiKey: flags.apiKey });
}

/** `claude-code (.claude/skills), cursor (.cursor/skills)`. */
function describeChoice(choice: AgentChoice, scope: InstallScope): string {
  const list = choice.agents
    .map((agent) => `${agent.id} (${displayFolder(skillsFolder(agent, scope), scope)})`)
    .join(', ');
  if (choice.how === 'given') return `Agents: ${list}`;
  if (choice.how === 'fallback') {
    return `Agents: ${list} — no agent detected, so the shared folder most agents read (choose with --agent)`;
  }
  const evidence = choice.detected.map((d) => `${d.agent.id} by ${d.evidence}`).join(', ');
  return `Agents: ${list} — detected (${evidence}); choose with --agent`;
}

function outcomeTable(ctx: Context, outcomes: readonly FolderOutcome[]): void {
  if (outcomes.length === 0) return;
  ctx.print(
    renderTable(
      outcomes,
      [
        { header: 'skill', value: (o) => o.skill, flexible: false },
        { header: 'revision', value: (o) => short(o.revision), flexible: false },
        { header: 'folder', value: (o) => o.folder },
        { header: 'result', value: (o) => o.result, flexible: false },
        {
          header: 'detail',
          value: (o) => [o.detail, o.warning && `warning: ${o.warning}`].filter(Boolean).join('; '),
        },
      ],
      ctx.width,
    ),
  );
}

/**
 * `failed` outcomes whose cause was the caller's (the server answered 4xx: no such skill or revision,
 * no access…): exit status 1 like any other command, not 2.
 */
const CALLER_FAILURES = new WeakSet<FolderOutcome>();

/** A `failed` outcome for `error`; remembered in {@link CALLER_FAILURES} when the server answered 4xx. */
function failedOutcome(skill: string, folder: string, revision: string, error: unknown): FolderOutcome {
  const detail = isApiError(error) ? `${error.code}: ${error.message}` : (error as Error).message;
  const outcome: FolderOutcome = { skill, folder, result: 'failed', revision, detail };
  if (isApiError(error) && error.status < 500) CALLER_FAILURES.add(outcome);
  return outcome;
}

/**
 * Exit status for a set of outcomes: 2 when any failed for a server, network or disk reason, else 1
 * when any was refused, skipped or failed for the caller's reason (4xx).
 */
function finish(ctx: Context, outcomes: readonly FolderOutcome[], what: string): void {
  const refused = outcomes.filter((o) => o.result === 'refused' || o.result === 'skipped');
  const conflicts = outcomes.filter((o) => o.result === 'conflict');
  const callers = outcomes.filter((o) => CALLER_FAILURES.has(o));
  const failed = outcomes.filter((o) => o.result === 'failed' && !CALLER_FAILURES.has(o));
  if (failed.length + refused.length + conflicts.length + callers.length === 0) return;
  const skills = new Set([...failed, ...refused, ...conflicts, ...callers].map((o) => o.skill)).size;
  throw new CliError(
    ctx.format === 'json'
      ? ''
      : `${skills} skill${skills === 1 ? '' : 's'} not ${what}` +
          (refused.some((o) => o.result === 'refused')
            ? ` (local edits kept: see detail; --force ${what === 'removed' ? 'removes' : 'replaces'} them)`
            : conflicts.length > 0
              ? ' (names differing only in letter case: see detail)'
              : ''),
    failed.length > 0 ? EXIT.server : EXIT.user,
  );
}

/** What `installed`, `outdated` and `update` say when the lock lists no skill (or there is none). */
function nothingInstalled(ws: Workspace): string {
  return ws.lockExists
    ? `nothing installed (${ws.lockPath} lists no skills)`
    : `nothing installed (no lock file at ${ws.lockPath}); install skills with skillport install <name>`;
}

function lockSummary(ws: Workspace): string {
  const n = Object.keys(ws.lock.skills).length;
  return `${ws.lockPath} (${n} skill${n === 1 ? '' : 's'})`;
}

/** `skillport install [names…]`. */
async function installAction(
  io: CliIo,
  specs: string[],
  options: ScopeOptions & { target?: string; frozen?: boolean },
  command: Command,
): Promise<void> {
  const ctx = createContext(io, command);
  const ws = await openWorkspace(io, options.global === true);
  const clients = pool(io, command);
  try {
    if (specs.length === 0) return await installFromLock(ctx, ws, clients, options);
    if (options.frozen) {
      throw new CliError('--frozen installs exactly what the lock file says: run it without skill names');
    }
    const parsed = specs.map(parseSkillSpec);
    for (const [i, spec] of parsed.entries()) {
      const twin = caseTwin(
        spec.name,
        parsed.slice(0, i).map((p) => p.name),
      );
      if (twin !== null) {
        throw new CliError(
          `${twin} and ${spec.name} differ only in letter case: one folder on macOS and Windows, so ` +
            'one skills folder holds only one of them; install one of them; nothing was changed',
        );
      }
    }
    const choice = options.agent?.length ? await chooseAgents(options.agent, ws.scope) : null;
    let fallback: AgentChoice | null = null;
    const needsChoice = choice === null && parsed.some((p) => ws.lock.skills[p.name] === undefined);
    if (needsChoice) fallback = await chooseAgents(undefined, ws.scope);
    const used = choice ?? fallback;
    if (used !== null && ctx.format !== 'json') ctx.print(`${describeChoice(used, ws.scope)}\n`);
    const server = await clients.defaultUrl();
    const client = await clients.client();
    const outcomes: FolderOutcome[] = [];
    const notStarted: string[] = [];
    let changed = false;
    await withGracefulStop(io, 'installing', async (stop) => {
      await withProgress(io, ctx.format, { total: parsed.length, label: 'Installing' }, async (bar) => {
        await pMap(
          parsed,
          async (spec) => {
            if (stop.requested) return void notStarted.push(spec.name);
            bar.update(spec.name);
            const previous = ws.lock.skills[spec.name] ?? null;
            let folders = used !== null ? foldersOf(used.agents, ws.scope) : (previous?.folders ?? []);
            try {
              const remote = await resolveRemoteSkill(client, spec.name, {
                revision: spec.revision,
                targetUri: options.target ?? previous?.root_uri,
              });
              // The lock pins one revision per skill: at another revision, every folder it is already
              // installed in moves along (else those folders would be recorded at a revision they lack).
              if (previous !== null && previous.revision !== remote.revision) {
                folders = [...new Set([...folders, ...previous.folders])];
              }
              const done = await installIntoFolders(client, remote, folders, ws.scope, {
                previous,
                force: options.force === true,
                locked: Object.keys(ws.lock.skills),
              });
              // At another revision than the lock's: say which, and what it changes (as update does).
              const moved =
                previous !== null && previous.revision !== remote.revision
                  ? `was ${short(previous.revision)}: ${describeFileChanges(previous.files, remote.files)}`
                  : null;
              outcomes.push(
                ...done.map((o) =>
                  moved !== null && o.result === 'updated'
                    ? { ...o, detail: `${moved}${o.detail ? `; ${o.detail}` : ''}` }
                    : o,
                ),
              );
              if (!done.some(blocksLock)) {
                ws.lock.skills[remote.name] = lockEntry(
                  previous?.revision === remote.revision ? previous.server : server,
                  remote,
                  folders,
                  previous,
                );
                changed = true;
              }
            } catch (error) {
              if (!isApiError(error) && !(error instanceof CliError)) throw error;
              for (const folder of folders)
                outcomes.push(failedOutcome(spec.name, folder, spec.revision ?? '', error));
            }
            bar.advance();
          },
          { concurrency: SKILL_CONCURRENCY },
        );
      });
      if (changed) ws.lock = await saveLock(ws.lockPath, ws.base, ws.lock);
      whenStopped(stop, notStarted, () => report(ctx, ws, outcomes, used, 'installed'));
    });
  } finally {
    clients.close();
  }
}

function report(
  ctx: Context,
  ws: Workspace,
  outcomes: FolderOutcome[],
  choice: AgentChoice | null,
  what: string,
): void {
  outcomes.sort((a, b) =>
    a.skill === b.skill ? (a.folder < b.folder ? -1 : 1) : a.skill < b.skill ? -1 : 1,
  );
  if (ctx.format === 'json') {
    printJson(ctx.io, {
      root: ws.scope.kind === 'project' ? ws.scope.root : ws.scope.home,
      lock_file: ws.lockPath,
      ...(choice
        ? {
            agents: choice.agents.map((a) => ({
              id: a.id,
              folder: displayFolder(skillsFolder(a, ws.scope), ws.scope),
            })),
            agents_chosen_by: choice.how,
          }
        : {}),
      results: outcomes,
    });
  } else {
    outcomeTable(ctx, outcomes);
    ctx.print(`Lock file: ${lockSummary(ws)}\n`);
  }
  // Installed all the same: the agent may still read it, and the registry's name is the one to use.
  for (const o of outcomes) {
    if (o.warning)
      ctx.io.stderr.write(`warning: ${escapeInlineControls(`${o.skill} in ${o.folder}: ${o.warning}`)}\n`);
  }
  finish(ctx, outcomes, what);
}

/**
 * Reports a command's outcomes with `report`; after Ctrl-C (see {@link withGracefulStop}) then ends
 * with exit status 130, naming the skills not started, whatever the outcomes' own status would be.
 */
function whenStopped(stop: StopRequest, notStarted: readonly string[], report: () => void): void {
  if (!stop.requested) {
    report();
    return;
  }
  try {
    report();
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
  }
  const n = notStarted.length;
  throw new CliError(
    `interrupted: ${n === 0 ? 'every skill was started' : `${n} skill${n === 1 ? '' : 's'} not started (${notStarted.slice(0, 5).join(', ')}${n > 5 ? ', …' : ''})`}; ` +
      'the lock file lists every skill written; run the command again to finish',
    EXIT_INTERRUPTED,
  );
}

/** `skillport install` with no names: everything the lock file lists, every hash verified. */
async function installFromLock(
  ctx: Context,
  ws: Workspace,
  clients: ClientPool,
  options: ScopeOptions & { frozen?: boolean },
): Promise<void> {
  if (!ws.lockExists) {
    throw new CliError(
      `no lock file at ${ws.lockPath}: name the skills to install, e.g. skillport install release-notes`,
    );
  }
  const extra = options.agent?.length ? await chooseAgents(options.agent, ws.scope) : null;
  const extraFolders = extra ? foldersOf(extra.agents, ws.scope) : [];
  const entries = Object.values(ws.lock.skills);
  if (options.frozen && extraFolders.length > 0) {
    const missing = entries.flatMap((e) =>
      extraFolders.filter((f) => !e.folders.includes(f)).map((f) => `${e.name} → ${f}`),
    );
    if (missing.length > 0) {
      throw new CliError(
        `--frozen: the lock file does not list ${missing.slice(0, 5).join(', ')}; nothing was changed`,
      );
    }
  }
  const outcomes: FolderOutcome[] = [];
  const notStarted: string[] = [];
  let changed = false;
  await withGracefulStop(ctx.io, 'installing', async (stop) => {
    await withProgress(ctx.io, ctx.format, { total: entries.length, label: 'Installing' }, async (bar) => {
      await pMap(
        entries,
        async (entry) => {
          if (stop.requested) return void notStarted.push(entry.name);
          bar.update(entry.name);
          const folders = [...new Set([...entry.folders, ...extraFolders])];
          const client = await clients.client(entry.server);
          const remote = {
            name: entry.name,
            rootUri: entry.root_uri,
            revision: entry.revision,
            files: entry.files,
          };
          const done = await installIntoFolders(client, remote, folders, ws.scope, {
            previous: entry,
            force: options.force === true,
            locked: Object.keys(ws.lock.skills),
          });
          outcomes.push(...done);
          if (folders.length > entry.folders.length && !done.some(blocksLock)) {
            ws.lock.skills[entry.name] = { ...entry, folders };
            changed = true;
          }
          bar.advance();
        },
        { concurrency: SKILL_CONCURRENCY },
      );
    });
    if (changed && !options.frozen) ws.lock = await saveLock(ws.lockPath, ws.base, ws.lock);
    whenStopped(stop, notStarted, () =>
      report(ctx, ws, outcomes, extra, options.frozen ? 'installed (--frozen)' : 'installed'),
    );
  });
}

/** The state of a locked skill the server no longer has. */
const REMOVED = 'removed from the server';

/** What to do about installed skills the server no longer has (names given as the shell reads them). */
function removedHint(names: readonly string[]): string {
  return (
    `removed from the server: skillport uninstall ${[...(names.some((n) => n.startsWith('-')) ? ['--'] : []), ...names].join(' ')} removes ${names.length === 1 ? 'it' : 'them'} here; ` +
    `skillport skills history ${names.length === 1 ? nameArgs(names[0] as string) : '<name>'} lists the revisions the server still keeps, to restore one`
  );
}

/** The server's current revision of a locked skill, or why it is unknown. */
async function latestRevision(
  clients: ClientPool,
  entry: LockedSkill,
): Promise<{ revision: string | null; note?: string }> {
  try {
    const client = await clients.client(entry.server);
    const current = await client.getSkill(entry.name, {
      level: 0,
      include_files: false,
      target_uri: entry.root_uri,
    });
    return { revision: current.revision };
  } catch (error) {
    if (isApiError(error) && error.code === 'NOT_FOUND') return { revision: null, note: REMOVED };
    // A server that answered (a wrong or revoked key, a root it refuses) is not an unreachable one:
    // the fix differs, so the note says which, with the server's code.
    if (isApiError(error)) {
      return {
        revision: null,
        note: `server refused the check: ${error.message} (${error.code}, HTTP ${error.status})`,
      };
    }
    return { revision: null, note: `server not reachable: ${(error as Error).message}` };
  }
}

function entriesFor(ws: Workspace, names: readonly string[]): LockedSkill[] {
  if (names.length === 0) return Object.values(ws.lock.skills);
  return names.map((raw) => {
    const { name } = parseSkillSpec(raw);
    const entry = ws.lock.skills[name];
    if (entry === undefined) {
      throw new CliError(
        `${name} is not installed here (not in ${ws.lockPath}); install it with skillport install ${nameArgs(name)}`,
      );
    }
    return entry;
  });
}

interface InstalledRow {
  skill: string;
  revision: string;
  folder: string;
  agents: string[];
  state: string;
  latest: string | null;
  note?: string;
}

/** `skillport installed`. */
async function installedAction(
  io: CliIo,
  options: { global?: boolean; offline?: boolean },
  command: Command,
) {
  const ctx = createContext(io, command);
  const ws = await openWorkspace(io, options.global === true);
  const clients = pool(io, command);
  try {
    const rows: InstalledRow[] = [];
    await pMap(
      Object.values(ws.lock.skills),
      async (entry) => {
        const latest = options.offline
          ? { revision: null, note: 'not checked (--offline)' }
          : await latestRevision(clients, entry);
        for (const folder of entry.folders) {
          const state = await readFolderState(
            `${resolveFolder(folder, ws.scope)}/${entry.name}`,
            entry.files,
          );
          const local = state.kind === 'intact' ? 'ok' : state.kind === 'missing' ? 'missing' : 'modified';
          const outdated = latest.revision !== null && latest.revision !== entry.revision;
          rows.push({
            skill: entry.name,
            revision: entry.revision,
            folder,
            agents: agentsAt(folder, ws.scope),
            state: outdated ? `${local}, outdated` : local,
            latest: latest.revision,
            ...(state.kind !== 'intact' && state.kind !== 'missing'
              ? { note: describeState(state) }
              : latest.note
                ? { note: latest.note }
                : {}),
          });
        }
      },
      { concurrency: SKILL_CONCURRENCY },
    );
    rows.sort((a, b) => (a.skill === b.skill ? (a.folder < b.folder ? -1 : 1) : a.skill < b.skill ? -1 : 1));
    if (ctx.format === 'json') return printJson(io, { lock_file: ws.lockPath, skills: rows });
    if (rows.length === 0) return ctx.print(`${nothingInstalled(ws)}\n`);
    ctx.print(
      renderTable(
        rows,
        [
          { header: 'skill', value: (r) => r.skill, flexible: false },
          { header: 'revision', value: (r) => short(r.revision), flexible: false },
          { header: 'folder', value: (r) => r.folder },
          { header: 'agents', value: (r) => r.agents.join(',') },
          { header: 'state', value: (r) => r.state, flexible: false },
          {
            header: 'latest',
            value: (r) => (r.latest && r.latest !== r.revision ? short(r.latest) : ''),
            flexible: false,
          },
          { header: 'note', value: (r) => r.note ?? '' },
        ],
        ctx.width,
      ),
    );
    ctx.print(`Lock file: ${lockSummary(ws)}\n`);
  } finally {
    clients.close();
  }
}

/**
 * `skillport outdated`: exit status 1 when any installed skill has a newer revision (as `npm outdated`)
 * or was removed from the server, 2 when any could not be checked (server unreachable, key refused).
 */
async function outdatedAction(io: CliIo, names: string[], options: { global?: boolean }, command: Command) {
  const ctx = createContext(io, command);
  const ws = await openWorkspace(io, options.global === true);
  const clients = pool(io, command);
  try {
    const rows = await pMap(
      entriesFor(ws, names),
      async (entry) => {
        const latest = await latestRevision(clients, entry);
        const state =
          latest.revision === null
            ? (latest.note ?? 'unknown')
            : latest.revision === entry.revision
              ? 'current'
              : 'outdated';
        return {
          skill: entry.name,
          installed: entry.revision,
          latest: latest.revision,
          state,
          server: entry.server,
        };
      },
      { concurrency: SKILL_CONCURRENCY },
    );
    rows.sort((a, b) => (a.skill < b.skill ? -1 : 1));
    const outdated = rows.filter((r) => r.state === 'outdated');
    const removed = rows.filter((r) => r.state === REMOVED);
    const unchecked = rows.filter((r) => r.latest === null && r.state !== REMOVED);
    if (ctx.format === 'json') {
      printJson(io, { lock_file: ws.lockPath, skills: rows });
    } else if (rows.length === 0) {
      ctx.print(`${nothingInstalled(ws)}\n`);
    } else if (outdated.length === 0 && rows.every((r) => r.state === 'current')) {
      ctx.print(`all ${rows.length} installed skill${rows.length === 1 ? ' is' : 's are'} current\n`);
    } else {
      ctx.print(
        renderTable(
          rows.filter((r) => r.state !== 'current'),
          [
            { header: 'skill', value: (r) => r.skill, flexible: false },
            { header: 'installed', value: (r) => short(r.installed), flexible: false },
            { header: 'latest', value: (r) => short(r.latest), flexible: false },
            { header: 'state', value: (r) => r.state },
          ],
          ctx.width,
        ),
      );
      if (outdated.length > 0) ctx.print(`run skillport update to install the latest revisions\n`);
      if (removed.length > 0) ctx.print(`${removedHint(removed.map((r) => r.skill))}\n`);
    }
    // Unchecked is not current: a script relying on the exit status must not read "all current".
    if (unchecked.length > 0) {
      const n = unchecked.length;
      throw new CliError(
        `${n} of ${rows.length} installed skill${rows.length === 1 ? '' : 's'} could not be checked (${unchecked[0]?.state})`,
        EXIT.server,
      );
    }
    if (outdated.length > 0 || removed.length > 0) throw new CliError('', EXIT.user);
  } finally {
    clients.close();
  }
}

/** `skillport update [names…]`. */
async function updateAction(io: CliIo, names: string[], options: ScopeOptions, command: Command) {
  const ctx = createContext(io, command);
  const ws = await openWorkspace(io, options.global === true);
  const clients = pool(io, command);
  try {
    const entries = entriesFor(ws, names);
    if (entries.length === 0 && ctx.format !== 'json') return ctx.print(`${nothingInstalled(ws)}\n`);
    const outcomes: FolderOutcome[] = [];
    const notStarted: string[] = [];
    let changed = false;
    await withGracefulStop(io, 'updating', async (stop) => {
      await withProgress(io, ctx.format, { total: entries.length, label: 'Updating' }, async (bar) => {
        await pMap(
          entries,
          async (entry) => {
            if (stop.requested) return void notStarted.push(entry.name);
            bar.update(entry.name);
            const client = await clients.client(entry.server);
            try {
              const remote = await resolveRemoteSkill(client, entry.name, { targetUri: entry.root_uri });
              const done = await installIntoFolders(client, remote, entry.folders, ws.scope, {
                previous: entry,
                force: options.force === true,
                locked: Object.keys(ws.lock.skills),
              });
              const changes =
                remote.revision === entry.revision
                  ? ''
                  : `: ${describeFileChanges(entry.files, remote.files)}`;
              outcomes.push(
                ...done.map((o) =>
                  o.result === 'updated' || o.result === 'installed'
                    ? {
                        ...o,
                        detail: `was ${short(entry.revision)}${changes}${o.detail ? `; ${o.detail}` : ''}`,
                      }
                    : o,
                ),
              );
              if (remote.revision !== entry.revision && !done.some(blocksLock)) {
                ws.lock.skills[entry.name] = lockEntry(entry.server, remote, entry.folders, entry);
                changed = true;
              }
            } catch (error) {
              if (!isApiError(error) && !(error instanceof CliError)) throw error;
              for (const folder of entry.folders) {
                const failed = failedOutcome(entry.name, folder, entry.revision, error);
                if (isApiError(error) && error.code === 'NOT_FOUND')
                  failed.detail = removedHint([entry.name]);
                outcomes.push(failed);
              }
            }
            bar.advance();
          },
          { concurrency: SKILL_CONCURRENCY },
        );
      });
      if (changed) ws.lock = await saveLock(ws.lockPath, ws.base, ws.lock);
      whenStopped(stop, notStarted, () => report(ctx, ws, outcomes, null, 'updated'));
    });
  } finally {
    clients.close();
  }
}

/** `skillport uninstall <names…>`. */
async function uninstallAction(io: CliIo, names: string[], options: ScopeOptions, command: Command) {
  const ctx = createContext(io, command);
  const ws = await openWorkspace(io, options.global === true);
  const only = options.agent?.length
    ? foldersOf((await chooseAgents(options.agent, ws.scope)).agents, ws.scope)
    : null;
  const entries = entriesFor(ws, names);
  if (only !== null) {
    // Checked before anything is removed: --agent naming none of a skill's folders is a mistake.
    for (const entry of entries) {
      if (entry.folders.some((f) => only.includes(f))) continue;
      throw new CliError(
        `${entry.name} is not installed in ${only.join(', ')} (the --agent folder${only.length === 1 ? '' : 's'}); ` +
          `it is in ${entry.folders.join(', ') || 'no folder'}; nothing was removed`,
      );
    }
  }
  const outcomes: FolderOutcome[] = [];
  for (const entry of entries) {
    const folders = only ? entry.folders.filter((f) => only.includes(f)) : entry.folders;
    const kept: string[] = entry.folders.filter((f) => !folders.includes(f));
    for (const folder of folders) {
      const dir = `${resolveFolder(folder, ws.scope)}/${entry.name}`;
      const state = await readFolderState(dir, entry.files);
      if ((state.kind === 'modified' || state.kind === 'foreign') && options.force !== true) {
        outcomes.push({
          skill: entry.name,
          folder,
          result: 'refused',
          revision: entry.revision,
          detail: `${folder}/${entry.name}: ${describeState(state)}; --force removes it`,
        });
        kept.push(folder);
        continue;
      }
      if (state.kind !== 'missing') await removeSkillFolder(dir);
      outcomes.push({
        skill: entry.name,
        folder,
        result: 'removed',
        revision: entry.revision,
        ...(state.kind === 'missing' ? { detail: 'was already gone' } : {}),
      });
    }
    if (kept.length === 0) delete ws.lock.skills[entry.name];
    else ws.lock.skills[entry.name] = { ...entry, folders: kept };
  }
  ws.lock = await saveLock(ws.lockPath, ws.base, ws.lock);
  report(ctx, ws, outcomes, null, 'removed');
}

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

const AGENT_HELP = `agent whose skills folder to use (repeatable, or comma list): ${AGENTS.map((a) => a.id).join(', ')}, or all (every detected one)`;

/** Registers `install`, `installed`, `outdated`, `update` and `uninstall` on the program. */
export function registerInstall(program: Command, io: CliIo): void {
  program
    .command('install')
    .alias('i')
    .description(
      "install skills from the server into agents' skills folders and pin them in skillport-lock.json; " +
        'with no names, install exactly what the lock file lists',
    )
    .argument('[skills...]', 'skill names, each optionally @<revision> (e.g. pdf-tools@9b1d4f0c)')
    .option('-a, --agent <id>', AGENT_HELP, collect)
    .option('-g, --global', "the user's skills folders (~/.claude/skills, …) instead of the project's")
    .option('--target <uri>', 'skill root on the server: your user root (default) or viking://agent/skills')
    .option('--force', 'replace installed folders even when they were edited by hand')
    .option('--frozen', 'install exactly what the lock file lists; fail instead of changing it (for CI)')
    .action((specs: string[], options, command: Command) => installAction(io, specs, options, command));

  program
    .command('installed')
    .description('list installed skills: where, which revision, whether edited by hand or outdated')
    .option('-g, --global', "the user's skills folders instead of the project's")
    .option('--offline', 'do not ask the server for newer revisions')
    .action((options, command: Command) => installedAction(io, options, command));

  program
    .command('outdated')
    .description(
      'list installed skills that have a newer revision on the server or were removed from it (exit status 1 when any; 2 when the server cannot be asked)',
    )
    .argument('[skills...]', 'only these skills')
    .option('-g, --global', "the user's skills folders instead of the project's")
    .action((names: string[], options, command: Command) => outdatedAction(io, names, options, command));

  program
    .command('update')
    .description(
      'install the latest revision of installed skills (all, or the ones named); local edits are kept unless --force',
    )
    .argument('[skills...]', 'only these skills')
    .option('-g, --global', "the user's skills folders instead of the project's")
    .option('--force', 'replace folders even when they were edited by hand')
    .action((names: string[], options, command: Command) => updateAction(io, names, options, command));

  program
    .command('uninstall')
    .description('remove installed skills from their folders and from the lock file')
    .argument('<skills...>', 'skill names')
    .option('-a, --agent <id>', 'only from this agent’s folder (repeatable)', collect)
    .option('-g, --global', "the user's skills folders instead of the project's")
    .option('--force', 'remove folders even when they were edited by hand')
    .action((names: string[], options, command: Command) => uninstallAction(io, names, options, command));
}
