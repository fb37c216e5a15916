/**
 * The agents `skillport install` writes skills for: each agent's project and user skills folders,
 * as its own documentation gives them, and the files that show a project (or a machine) uses it.
 *
 * Every agent here reads skill folders in the Agent Skills layout (`<skills folder>/<name>/SKILL.md`
 * plus auxiliary files). Folders are POSIX paths: project ones relative to the project root, user
 * ones relative to the home folder (`~`), or to `$XDG_CONFIG_HOME` when the agent keeps them under
 * `~/.config` (`xdg: true`).
 */
import { stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** One agent of the table. */
export interface AgentSpec {
  /** Id used by `--agent` and in the lock file. */
  id: string;
  /** Human name. */
  name: string;
  /** Project skills folder, relative to the project root. */
  project: string;
  /** User skills folder, relative to the home folder (or the XDG config folder, see `xdg`). */
  user: string;
  /** The user folder lives under `~/.config` and follows `$XDG_CONFIG_HOME`. */
  xdg?: boolean;
  /** Files or folders (relative to the project root) whose presence shows the project uses the agent. */
  projectMarkers: readonly string[];
  /** Files or folders (relative to home, or XDG config with `xdg`) showing the agent is set up on this machine. */
  userMarkers: readonly string[];
  /** Where the agent documents these folders. */
  source: string;
}

/**
 * The agent folder table. Sources, checked against each agent's documentation:
 * - Claude Code — https://code.claude.com/docs/en/skills (`.claude/skills/<name>/SKILL.md` in the
 *   project, `~/.claude/skills/<name>/SKILL.md` personal)
 * - Codex — https://developers.openai.com/codex/skills (REPO `.agents/skills` from the working folder up
 *   to the repository root, USER `$HOME/.agents/skills`)
 * - Cursor — https://cursor.com/docs/skills (`.agents/skills/`, `.cursor/skills/` project;
 *   `~/.agents/skills/`, `~/.cursor/skills/` user)
 * - Gemini CLI — https://geminicli.com/docs/cli/using-agent-skills (workspace `.gemini/skills/` or the
 *   `.agents/skills/` alias; user `~/.gemini/skills/` or `~/.agents/skills/`)
 * - GitHub Copilot — https://docs.github.com/en/copilot/how-tos/copilot-cli/customize-copilot/create-skills
 *   (project `.github/skills`, `.claude/skills` or `.agents/skills`; personal `~/.copilot/skills`,
 *   `~/.claude/skills` or `~/.agents/skills`)
 * - OpenCode — https://opencode.ai/docs/skills (`.opencode/skills/<name>/SKILL.md`,
 *   `~/.config/opencode/skills/<name>/SKILL.md`; also reads the Claude and `.agents` folders)
 * - Goose — https://block.github.io/goose/docs/guides/context-engineering/using-skills (`./.goose/skills/`,
 *   `~/.config/goose/skills/`; also `./.agents/skills/`, `~/.config/agents/skills/`)
 * - Windsurf — https://docs.windsurf.com/windsurf/cascade/skills (workspace `.windsurf/skills/<name>/`,
 *   global `~/.codeium/windsurf/skills/<name>/`)
 * - Cline — https://docs.cline.bot/customization/skills (project `.cline/skills/`, global `~/.cline/skills/`)
 * - Agent Skills shared folder — https://agentskills.io (`.agents/skills/` and `~/.agents/skills/`,
 *   read by Codex, Cursor, Gemini CLI, GitHub Copilot and OpenCode alike)
 */
export const AGENTS: readonly AgentSpec[] = [
  {
    id: 'claude-code',
    name: 'Claude Code',
    project: '.claude/skills',
    user: '.claude/skills',
    projectMarkers: ['.claude', 'CLAUDE.md'],
    userMarkers: ['.claude'],
    source: 'https://code.claude.com/docs/en/skills',
  },
  {
    id: 'codex',
    name: 'Codex',
    project: '.agents/skills',
    user: '.agents/skills',
    projectMarkers: ['.codex'],
    userMarkers: ['.codex'],
    source: 'https://developers.openai.com/codex/skills',
  },
  {
    id: 'cursor',
    name: 'Cursor',
    project: '.cursor/skills',
    user: '.cursor/skills',
    projectMarkers: ['.cursor', '.cursorrules'],
    userMarkers: ['.cursor'],
    source: 'https://cursor.com/docs/skills',
  },
  {
    id: 'gemini-cli',
    name: 'Gemini CLI',
    project: '.gemini/skills',
    user: '.gemini/skills',
    projectMarkers: ['.gemini', 'GEMINI.md'],
    userMarkers: ['.gemini'],
    source: 'https://geminicli.com/docs/cli/using-agent-skills',
  },
  {
    id: 'github-copilot',
    name: 'GitHub Copilot',
    project: '.github/skills',
    user: '.copilot/skills',
    projectMarkers: ['.github/copilot-instructions.md', '.github/instructions', '.github/skills'],
    userMarkers: ['.copilot'],
    source: 'https://docs.github.com/en/copilot/how-tos/copilot-cli/customize-copilot/create-skills',
  },
  {
    id: 'opencode',
    name: 'OpenCode',
    project: '.opencode/skills',
    user: 'opencode/skills',
    xdg: true,
    projectMarkers: ['.opencode', 'opencode.json', 'opencode.jsonc'],
    userMarkers: ['opencode'],
    source: 'https://opencode.ai/docs/skills',
  },
  {
    id: 'goose',
    name: 'Goose',
    project: '.goose/skills',
    user: 'goose/skills',
    xdg: true,
    projectMarkers: ['.goose', '.goosehints'],
    userMarkers: ['goose'],
    source: 'https://block.github.io/goose/docs/guides/context-engineering/using-skills',
  },
  {
    id: 'windsurf',
    name: 'Windsurf',
    project: '.windsurf/skills',
    user: '.codeium/windsurf/skills',
    projectMarkers: ['.windsurf', '.windsurfrules'],
    userMarkers: ['.codeium/windsurf'],
    source: 'https://docs.windsurf.com/windsurf/cascade/skills',
  },
  {
    id: 'cline',
    name: 'Cline',
    project: '.cline/skills',
    user: '.cline/skills',
    projectMarkers: ['.cline', '.clinerules'],
    userMarkers: ['.cline'],
    source: 'https://docs.cline.bot/customization/skills',
  },
  {
    id: 'agents',
    name: 'Agent Skills (shared .agents/skills)',
    project: '.agents/skills',
    user: '.agents/skills',
    projectMarkers: ['.agents', 'AGENTS.md'],
    userMarkers: ['.agents'],
    source: 'https://agentskills.io',
  },
];

/** The agent a project gets when none is detected: the shared folder most agents read. */
export const FALLBACK_AGENT = 'agents';

/** Looks an agent up by id (case-insensitive); undefined when unknown. */
export function findAgent(id: string): AgentSpec | undefined {
  const wanted = id.trim().toLowerCase();
  return AGENTS.find((agent) => agent.id === wanted);
}

/** Where installs go: the project (folders relative to its root) or the user's home (`--global`). */
export type InstallScope =
  | { kind: 'project'; root: string }
  | { kind: 'user'; home: string; configHome: string };

/** The home and XDG config folders of an environment. */
export function userScope(env: NodeJS.ProcessEnv): InstallScope {
  const home = env.HOME?.trim() || env.USERPROFILE?.trim() || os.homedir();
  const configHome = env.XDG_CONFIG_HOME?.trim() || path.join(home, '.config');
  return { kind: 'user', home, configHome };
}

/** The skills folder of `agent` in `scope`, as an absolute path. */
export function skillsFolder(agent: AgentSpec, scope: InstallScope): string {
  if (scope.kind === 'project') return path.join(scope.root, ...agent.project.split('/'));
  const base = agent.xdg === true ? scope.configHome : scope.home;
  return path.join(base, ...agent.user.split('/'));
}

/** How a skills folder is written in the lock file and messages: relative to the scope's base. */
export function displayFolder(folder: string, scope: InstallScope): string {
  const base = scope.kind === 'project' ? scope.root : scope.home;
  const relative = path.relative(base, folder).split(path.sep).join('/');
  return scope.kind === 'project' ? relative : `~/${relative}`;
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

/** An agent found in a scope, with the file that gave it away. */
export interface DetectedAgent {
  agent: AgentSpec;
  /** The marker found: relative to the project root (`.cursor`, `CLAUDE.md`), or `~/…` for the user scope. */
  evidence: string;
}

/**
 * The agents a project (or, for the user scope, this machine) uses: those whose folder or config
 * file exists, in table order.
 */
export async function detectAgents(scope: InstallScope): Promise<DetectedAgent[]> {
  const found: DetectedAgent[] = [];
  for (const agent of AGENTS) {
    const markers = scope.kind === 'project' ? agent.projectMarkers : agent.userMarkers;
    const base = scope.kind === 'project' ? scope.root : agent.xdg === true ? scope.configHome : scope.home;
    for (const marker of markers) {
      const full = path.join(base, ...marker.split('/'));
      if (await exists(full)) {
        found.push({
          agent,
          evidence:
            scope.kind === 'project'
              ? marker
              : `~/${path.relative(scope.home, full).split(path.sep).join('/')}`,
        });
        break;
      }
    }
  }
  return found;
}
