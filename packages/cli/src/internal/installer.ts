/**
 * The work behind `skillport install | installed | outdated | update | uninstall`: where installs go
 * (project or user scope), which agents' folders, the lock file, and installing one skill into its
 * folders without ever replacing local edits silently.
 */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { AsyncHTTPClient, isApiError } from '@skillport/sdk-node';
import { agentNameWarning } from './agent-names.js';
import {
  AGENTS,
  type AgentSpec,
  type DetectedAgent,
  detectAgents,
  displayFolder,
  FALLBACK_AGENT,
  findAgent,
  type InstallScope,
  skillsFolder,
  userScope,
} from './agents.js';
import { configPath, resolveSettings } from './config.js';
import { CliError, type CliIo } from './io.js';
import { emptyLock, LOCK_FILE_NAME, type LockedSkill, type LockFile, readLock } from './lock-file.js';
import { nameArgs } from './name-arg.js';
import { downloadSkillFiles, type RemoteSkill } from './remote-skill.js';
import {
  describeState,
  type FileDigest,
  type FolderState,
  type FolderWrite,
  readFolderState,
  writeSkillFolders,
} from './skill-folder.js';

/** Where a command works: the scope, its lock file and the lock read from it. */
export interface Workspace {
  scope: InstallScope;
  /** Absolute path of the lock file. */
  lockPath: string;
  /** The lock (empty when the file does not exist yet); the command changes it, then saves it. */
  lock: LockFile;
  /** The lock as read when the command started: what `saveLock` compares `lock` with. */
  base: LockFile;
  /** Whether the lock file existed. */
  lockExists: boolean;
  /** `.` style label of the scope for messages: the project root, or `~` for the user scope. */
  label: string;
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

/**
 * The project root of `cwd`: the nearest folder holding a `skillport-lock.json`, else the nearest
 * holding `.git` (a repository's root), else `cwd` itself.
 */
export async function findProjectRoot(cwd: string): Promise<string> {
  let dir = path.resolve(cwd);
  let gitRoot: string | null = null;
  for (;;) {
    if (await exists(path.join(dir, LOCK_FILE_NAME))) return dir;
    if (gitRoot === null && (await exists(path.join(dir, '.git')))) gitRoot = dir;
    const parent = path.dirname(dir);
    if (parent === dir) return gitRoot ?? path.resolve(cwd);
    dir = parent;
  }
}

/**
 * Opens the workspace of a command: the project of the working folder, or with `global` the user's
 * home folder, whose lock file sits beside the CLI's config (`~/.config/skillport/skillport-lock.json`).
 */
export async function openWorkspace(io: CliIo, global: boolean): Promise<Workspace> {
  if (global) {
    const scope = userScope(io.env);
    const lockPath = path.join(path.dirname(configPath(io.env)), LOCK_FILE_NAME);
    const lock = await readLock(lockPath);
    return {
      scope,
      lockPath,
      lock: lock ?? emptyLock(),
      base: structuredClone(lock ?? emptyLock()),
      lockExists: lock !== null,
      label: '~',
    };
  }
  const root = await findProjectRoot(io.cwd);
  const lockPath = path.join(root, LOCK_FILE_NAME);
  const lock = await readLock(lockPath);
  return {
    scope: { kind: 'project', root },
    lockPath,
    lock: lock ?? emptyLock(),
    base: structuredClone(lock ?? emptyLock()),
    lockExists: lock !== null,
    label: root,
  };
}

/** The agents chosen for a command, and how they were chosen (for the message that says so). */
export interface AgentChoice {
  agents: AgentSpec[];
  /** `given` (--agent), `detected`, or `fallback` (nothing detected: the shared folder). */
  how: 'given' | 'detected' | 'fallback';
  detected: DetectedAgent[];
}

/**
 * Resolves `--agent`: ids from the table, `all` for every detected agent; none given → the detected
 * agents, or when none is detected the shared `.agents/skills` folder.
 *
 * @throws CliError for an unknown id (listing the known ones) or `all` when nothing is detected
 */
export async function chooseAgents(
  ids: readonly string[] | undefined,
  scope: InstallScope,
): Promise<AgentChoice> {
  const detected = await detectAgents(scope);
  const wanted = (ids ?? [])
    .flatMap((id) => id.split(','))
    .map((id) => id.trim())
    .filter((id) => id !== '');
  if (wanted.length === 0) {
    if (detected.length > 0) return { agents: detected.map((d) => d.agent), how: 'detected', detected };
    return { agents: [findAgent(FALLBACK_AGENT) as AgentSpec], how: 'fallback', detected };
  }
  const agents: AgentSpec[] = [];
  for (const id of wanted) {
    if (id.toLowerCase() === 'all') {
      if (detected.length === 0) {
        throw new CliError(
          `--agent all: no agent detected in ${scope.kind === 'project' ? scope.root : 'your home folder'} ` +
            `(looked for ${AGENTS.flatMap((a) =>
              scope.kind === 'project' ? a.projectMarkers : a.userMarkers,
            )
              .slice(0, 6)
              .join(', ')}, …); ` +
            'name the agents, e.g. --agent claude-code',
        );
      }
      agents.push(...detected.map((d) => d.agent));
      continue;
    }
    const agent = findAgent(id);
    if (agent === undefined) {
      throw new CliError(
        `unknown agent "${id}": expected one of ${AGENTS.map((a) => a.id).join(', ')}, or all`,
      );
    }
    agents.push(agent);
  }
  return { agents: [...new Set(agents)], how: 'given', detected };
}

/**
 * The distinct skills folders of some agents (two agents may share one, e.g. Codex and the shared
 * `.agents/skills`), as the lock file writes them.
 */
export function foldersOf(agents: readonly AgentSpec[], scope: InstallScope): string[] {
  return [...new Set(agents.map((agent) => displayFolder(skillsFolder(agent, scope), scope)))];
}

/** The absolute path of a lock file folder entry (`.claude/skills`, `~/.cursor/skills`). */
export function resolveFolder(folder: string, scope: InstallScope): string {
  if (folder.startsWith('~/')) {
    if (scope.kind !== 'user')
      throw new CliError(`the project lock file names a folder of the home folder: ${folder}`);
    return path.join(scope.home, ...folder.slice(2).split('/'));
  }
  if (scope.kind !== 'project') throw new CliError(`the user lock file names a project folder ${folder}`);
  const full = path.resolve(scope.root, ...folder.split('/'));
  if (full !== scope.root && !full.startsWith(scope.root + path.sep)) {
    throw new CliError(`the lock file names a folder outside the project: ${folder}`);
  }
  return full;
}

/** Agents whose skills folder is `folder` (for messages: `.agents/skills` → codex, agents). */
export function agentsAt(folder: string, scope: InstallScope): string[] {
  return AGENTS.filter((agent) => displayFolder(skillsFolder(agent, scope), scope) === folder).map(
    (a) => a.id,
  );
}

/**
 * Clients by server URL, sharing the resolved API key. The server of a lock entry is chosen as for
 * every other command, with the lock in place of the config file: `--url`, else `SKILLPORT_URL`, else
 * the entry's `server`, else the config file, else the default. So a lock written against one address
 * installs from another (CI, a moved server) with either the flag or the variable.
 */
export class ClientPool {
  readonly #clients = new Map<string, AsyncHTTPClient>();
  readonly #io: CliIo;
  readonly #flags: { url?: string | undefined; apiKey?: string | undefined };
  #settings: Promise<Awaited<ReturnType<typeof resolveSettings>>> | undefined;

  constructor(io: CliIo, flags: { url?: string | undefined; apiKey?: string | undefined }) {
    this.#io = io;
    this.#flags = flags;
  }

  /** The URL new installs record: `--url`, else `SKILLPORT_URL`, else the config file, else the default. */
  async defaultUrl(): Promise<string> {
    return (await this.#resolved()).url.value as string;
  }

  /** A client for `server` (a lock entry's URL), or for the default URL when none is given. */
  async client(server?: string): Promise<AsyncHTTPClient> {
    const settings = await this.#resolved();
    const chosen =
      settings.url.source === 'flag' || settings.url.source === 'env' ? settings.url.value : undefined;
    const url = (chosen ?? server ?? settings.url.value ?? '').replace(/\/+$/, '');
    let client = this.#clients.get(url);
    if (client === undefined) {
      client = new AsyncHTTPClient({
        url,
        ...(settings.apiKey.value ? { apiKey: settings.apiKey.value } : {}),
      });
      this.#clients.set(url, client);
    }
    return client;
  }

  close(): void {
    for (const client of this.#clients.values()) client.close();
  }

  #resolved() {
    this.#settings ??= resolveSettings(this.#io.env, this.#flags);
    return this.#settings;
  }
}

/** What happened to one skill in one folder. */
export interface FolderOutcome {
  skill: string;
  folder: string;
  /**
   * `installed` (new), `updated` (replaced), `unchanged`, `refused` (local edits or a folder skillport
   * did not write), `conflict` (another skill's folder has the same name but for letter case: see
   * {@link caseTwin}; `--force` does not override it), `skipped` (left or put back as it was because
   * another folder of the skill was refused or could not be written), `failed` (download or write
   * error), `removed` (uninstall).
   */
  result: 'installed' | 'updated' | 'unchanged' | 'refused' | 'conflict' | 'skipped' | 'failed' | 'removed';
  revision: string;
  /** Why it was refused or failed, or what was replaced. */
  detail?: string;
  /**
   * For a folder written: the agents reading it that may not load the skill because of its name
   * (see {@link agentNameWarning}), e.g. `Claude Code: "name" "PDF_Tools" may contain only … (…)`.
   */
  warning?: string;
}

/** Whether an outcome keeps its skill's lock entry from being written (or moved to a new revision). */
export function blocksLock(outcome: FolderOutcome): boolean {
  return (
    outcome.result === 'refused' ||
    outcome.result === 'conflict' ||
    outcome.result === 'skipped' ||
    outcome.result === 'failed'
  );
}

/**
 * The other skill whose folder is `name`'s folder on a case-insensitive file system (macOS and
 * Windows by default): a name that differs from `name` only in letter case (`Release-Notes` beside
 * `release-notes`). The server keeps both (skill names are case-sensitive there, as in OpenViking),
 * but one skills folder cannot hold both on every platform, so install and update refuse the second
 * whatever the platform, naming both.
 *
 * @param name - the skill to install
 * @param names - names already taken: the lock's skills, or the entries of a skills folder
 * @returns the first name of `names` equal to `name` but for letter case, or null
 */
export function caseTwin(name: string, names: Iterable<string>): string | null {
  const folded = name.toLowerCase();
  for (const other of names) if (other !== name && other.toLowerCase() === folded) return other;
  return null;
}

/** The entries of a skills folder (none when it does not exist yet). */
async function folderEntries(dir: string): Promise<string[]> {
  return readdir(dir).catch(() => []);
}

/** The `conflict` detail for `name` against the skill (or folder) `twin` in `folder`. */
export function caseConflictDetail(name: string, twin: string, where: string): string {
  return (
    `${twin} (${where}) and ${name} differ only in letter case: one folder on macOS and Windows, ` +
    `so one skills folder holds only one of them; uninstall or rename ${twin} first`
  );
}

/**
 * Installs one skill at one revision into its folders. A folder that holds exactly the files
 * skillport installed there (`previous`) is replaced; one with local edits, or one skillport did not
 * create, is left alone and reported `refused` unless `force`. The files are downloaded once and
 * checked against `remote.files` before anything is written. A skill whose name differs only in
 * letter case from another skill of the lock (`locked`) or from an entry of a skills folder is
 * reported `conflict` in every folder (see {@link caseTwin}), `--force` or not, and nothing is written.
 * The folders are written all or nothing (see {@link writeSkillFolders}): when one cannot be written
 * it is reported `failed` and the others `skipped`, left or put back as they were.
 * A folder written whose agents may not load the skill by its name carries a `warning`.
 *
 * @param previous - the files recorded for this skill in the lock (null when not locked)
 * @param locked - the names of the lock's skills
 * @returns one outcome per folder; the caller records the lock entry when none was refused or failed
 */
export async function installIntoFolders(
  client: AsyncHTTPClient,
  remote: RemoteSkill,
  folders: readonly string[],
  scope: InstallScope,
  options: { previous: LockedSkill | null; force: boolean; locked: Iterable<string> },
): Promise<FolderOutcome[]> {
  const conflict = (folder: string, detail: string): FolderOutcome => ({
    skill: remote.name,
    folder,
    result: 'conflict',
    revision: remote.revision,
    detail,
  });
  const lockedTwin = caseTwin(remote.name, options.locked);
  if (lockedTwin !== null) {
    return folders.map((folder) =>
      conflict(folder, caseConflictDetail(remote.name, lockedTwin, 'installed here, in the lock file')),
    );
  }
  const outcomes: FolderOutcome[] = [];
  const todo: Array<{ folder: string; dir: string; state: FolderState }> = [];
  for (const folder of folders) {
    const skillsDir = resolveFolder(folder, scope);
    const dir = path.join(skillsDir, remote.name);
    const folderTwin = caseTwin(remote.name, await folderEntries(skillsDir));
    if (folderTwin !== null) {
      outcomes.push(conflict(folder, caseConflictDetail(remote.name, folderTwin, `${folder}/${folderTwin}`)));
      continue;
    }
    const recorded = options.previous?.folders.includes(folder) ? options.previous.files : null;
    // What is there now, compared with what we would write (already up to date?) and with what we
    // wrote before (edited since?).
    const current = await readFolderState(dir, remote.files);
    if (current.kind === 'intact') {
      outcomes.push({ skill: remote.name, folder, result: 'unchanged', revision: remote.revision });
      continue;
    }
    const state = current.kind === 'missing' ? current : await readFolderState(dir, recorded);
    if ((state.kind === 'modified' || state.kind === 'foreign') && !options.force) {
      outcomes.push({
        skill: remote.name,
        folder,
        result: 'refused',
        revision: remote.revision,
        detail: `${folder}/${remote.name}: ${describeState(state)}; --force replaces it`,
      });
      continue;
    }
    todo.push({ folder, dir, state });
  }
  if (todo.length === 0) return outcomes;
  // All or nothing per skill: when one folder is refused the others stay as they are, so every folder
  // of a skill keeps matching the one revision its lock entry records.
  if (outcomes.some((o) => o.result === 'refused' || o.result === 'conflict')) {
    for (const item of todo) {
      outcomes.push({
        skill: remote.name,
        folder: item.folder,
        result: 'skipped',
        revision: remote.revision,
        detail: outcomes.some((o) => o.result === 'refused')
          ? 'left as it was: another folder of this skill has local edits'
          : 'left as it was: another folder of this skill has a name conflict',
      });
    }
    return outcomes;
  }
  let files: Map<string, Uint8Array>;
  try {
    files = await downloadSkillFiles(client, remote, remote.files);
  } catch (error) {
    const detail = isApiError(error) ? `${error.code}: ${error.message}` : (error as Error).message;
    for (const item of todo) {
      outcomes.push({
        skill: remote.name,
        folder: item.folder,
        result: 'failed',
        revision: remote.revision,
        detail,
      });
    }
    return outcomes;
  }
  // All or nothing across folders too: every folder is written beside its place first and swapped
  // in only when all are; when one fails, the others are left (or put back) as they were.
  const writes = await writeSkillFolders(
    todo.map((item) => path.dirname(item.dir)),
    remote.name,
    files,
    executablePaths(remote.files),
  );
  const skillMd = files.get('SKILL.md');
  for (const [i, item] of todo.entries()) {
    const write = writes[i] as FolderWrite;
    const base = { skill: remote.name, folder: item.folder, revision: remote.revision };
    if (write.kind === 'failed' || write.kind === 'not-put-back') {
      outcomes.push({ ...base, result: 'failed', detail: write.reason });
      continue;
    }
    if (write.kind === 'untouched' || write.kind === 'put-back') {
      const how = write.kind === 'put-back' ? 'put back as it was' : 'left as it was';
      outcomes.push({
        ...base,
        result: 'skipped',
        detail: `${how}: another folder of this skill could not be written`,
      });
      continue;
    }
    const warning = skillMd ? agentNameWarning(item.folder, scope, remote.name, skillMd) : null;
    outcomes.push({
      ...base,
      result: item.state.kind === 'missing' ? 'installed' : 'updated',
      ...(item.state.kind === 'modified' || item.state.kind === 'foreign'
        ? { detail: `replaced with --force (${describeState(item.state)})` }
        : {}),
      ...(warning !== null ? { warning } : {}),
    });
  }
  return outcomes;
}

/** The paths of the executable files among `files`. */
function executablePaths(files: readonly FileDigest[]): Set<string> {
  return new Set(files.filter((f) => f.executable === true).map((f) => f.path));
}

/** Parses `name` or `name@revision`. */
export function parseSkillSpec(spec: string): { name: string; revision?: string } {
  const at = spec.lastIndexOf('@');
  const name = (at > 0 ? spec.slice(0, at) : spec).trim();
  const revision = at > 0 ? spec.slice(at + 1).trim() : undefined;
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(name)) {
    throw new CliError(
      `"${spec}" is not a skill name (1–64 of A-Z a-z 0-9 _ -, optionally @<revision>), e.g. pdf-tools@9b1d4f0c`,
    );
  }
  if (revision !== undefined && !/^[0-9a-fA-F]{4,64}$/.test(revision)) {
    throw new CliError(
      `"${spec}": the revision after @ must be 4 to 64 hex characters (see skillport skills history ${nameArgs(name)})`,
    );
  }
  return revision === undefined ? { name } : { name, revision: revision.toLowerCase() };
}

/** The lock entry for a skill installed at `remote` into `folders` (merged with earlier folders). */
export function lockEntry(
  server: string,
  remote: RemoteSkill,
  folders: readonly string[],
  previous: LockedSkill | null,
): LockedSkill {
  return {
    server: server.replace(/\/+$/, ''),
    root_uri: remote.rootUri,
    name: remote.name,
    revision: remote.revision,
    folders: [...new Set([...(previous?.folders ?? []), ...folders])],
    files: remote.files.map((f) => ({
      path: f.path,
      sha256: f.sha256,
      size: f.size,
      ...(f.executable === true ? { executable: true as const } : {}),
    })),
  };
}
