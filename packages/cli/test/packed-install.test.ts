/**
 * The published packages as a user gets them: every package is packed (`pnpm pack`, so `workspace:`
 * ranges and `publishConfig` apply) and installed with `npm install --ignore-scripts` into an empty
 * project outside the workspace. The CLI must work there without the server (no native build, no
 * compiler), `serve` must say how to get the server, and the published files must stand on their own:
 * type declarations that check with `skipLibCheck: false`, source maps whose sources ship, no
 * references to documents a consumer does not have.
 *
 * Needs the npm registry for third-party dependencies (as any install does).
 */
import { execFile, spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './support/corpus.js';
import { type RunningCliServer, requireBuild, startCliServer } from './support/processes.js';

const run = promisify(execFile);

/** The published packages, in dependency order. */
const PACKAGES = [
  ['@skillport/core', 'packages/core'],
  ['@skillport/spec', 'spec'],
  ['@skillport/sdk-browser', 'packages/sdk-browser'],
  ['@skillport/sdk-node', 'packages/sdk-node'],
  ['@skillport/mcp', 'packages/mcp'],
  ['@skillport/cli', 'packages/cli'],
  ['@skillport/server', 'apps/server'],
] as const;

let work: string;
let packDir: string;
/** A project with the CLI (and so core, spec and both SDKs) but not the server. */
let cliProject: string;
/** A project with every package, the server included, for the type check. */
let fullProject: string;
const tarballs = new Map<string, string>();
let server: RunningCliServer;

async function npmInstall(dir: string, specs: string[]): Promise<void> {
  writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
  );
  await run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', ...specs], {
    cwd: dir,
    env: { ...process.env, npm_config_update_notifier: 'false' },
    maxBuffer: 16 * 1024 * 1024,
  });
}

beforeAll(async () => {
  requireBuild();
  work = mkdtempSync(path.join(os.tmpdir(), 'skillport-packed-'));
  packDir = path.join(work, 'tarballs');
  for (const [name, dir] of PACKAGES) {
    const { stdout } = await run('pnpm', ['pack', '--pack-destination', packDir], {
      cwd: path.join(REPO_ROOT, dir),
    });
    const file = stdout.trim().split('\n').pop() ?? '';
    tarballs.set(name, path.isAbsolute(file) ? file : path.join(packDir, path.basename(file)));
  }
  const all = [...tarballs.values()];
  cliProject = path.join(work, 'cli-project');
  fullProject = path.join(work, 'full-project');
  for (const dir of [cliProject, fullProject]) mkdirSync(dir, { recursive: true });
  await npmInstall(
    cliProject,
    all.filter((file) => !file.includes('skillport-server-')),
  );
  await npmInstall(fullProject, [...all, '@types/node@20']);
  server = await startCliServer();
}, 600_000);

afterAll(async () => {
  await server?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** Runs the installed `skillport` of the CLI-only project. */
function skillport(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [path.join(cliProject, 'node_modules/@skillport/cli/dist/bin.js'), ...args],
      {
        cwd: cliProject,
        env: { PATH: process.env.PATH, HOME: work, XDG_CONFIG_HOME: path.join(work, 'config') },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

function installedPackages(root: string): string[] {
  const out: string[] = [];
  const visit = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir)) {
      if (entry.startsWith('.')) continue;
      const full = path.join(dir, entry);
      if (entry.startsWith('@')) visit(full);
      else {
        out.push(full);
        visit(path.join(full, 'node_modules'));
      }
    }
  };
  visit(path.join(root, 'node_modules'));
  return out;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

describe('the CLI installed from its tarball, without the server', () => {
  it('installs nothing that needs a compiler', () => {
    const packages = installedPackages(cliProject);
    expect(packages.some((p) => p.endsWith(`${path.sep}@skillport${path.sep}cli`))).toBe(true);
    expect(packages.filter((p) => /better-sqlite3|@skillport[\\/]server$/.test(p))).toEqual([]);
    const native = packages.filter((p) => existsSync(path.join(p, 'binding.gyp')));
    expect(native).toEqual([]);
  });

  it('declares the Node version its dependencies need', () => {
    const manifest = JSON.parse(
      readFileSync(path.join(cliProject, 'node_modules/@skillport/cli/package.json'), 'utf8'),
    ) as { engines: { node: string }; peerDependenciesMeta?: Record<string, { optional?: boolean }> };
    expect(manifest.engines.node).toBe('>=20.16');
    expect(manifest.peerDependenciesMeta?.['@skillport/server']?.optional).toBe(true);
  });

  it('validates a skill folder locally', async () => {
    const ok = await skillport(['skills', 'validate', path.join(REPO_ROOT, 'examples/skills/release-notes')]);
    expect(ok.stderr).toContain('1 file checked: 1 valid');
    expect(ok.code).toBe(0);
    const broken = await skillport([
      'skills',
      'validate',
      path.join(REPO_ROOT, 'examples/broken/changelog-helper'),
    ]);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toContain('allowed_tools_invalid');
  });

  it('adds and finds skills on a server', async () => {
    const added = await skillport([
      'add-skill',
      path.join(REPO_ROOT, 'examples/skills/release-notes'),
      '--wait',
      '--url',
      server.url,
      '-o',
      'json',
    ]);
    expect(added.code, added.stderr).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({ name: 'release-notes', auxiliary_files: 1 });
    const found = await skillport(['skills', 'find', 'draft a changelog', '--url', server.url, '-o', 'json']);
    expect(found.code, found.stderr).toBe(0);
    expect((JSON.parse(found.stdout) as { skills: Array<{ name: string }> }).skills[0]?.name).toBe(
      'release-notes',
    );
  });

  it('`serve` names the install command of the missing server', async () => {
    const serve = await skillport(['serve', '--port', '0']);
    expect(serve.code).toBe(1);
    expect(serve.stderr).toMatch(/needs the Skillport server, which is not installed/);
    expect(serve.stderr).toContain('npm install -g @skillport/server@');
  });
});

describe('the published files', () => {
  it('type-check in a consumer with skipLibCheck: false', async () => {
    writeFileSync(
      path.join(fullProject, 'consumer.ts'),
      [
        "import { validateSkill } from '@skillport/core';",
        "import { loadSkillDir } from '@skillport/core/node';",
        "import type { paths } from '@skillport/spec';",
        "import { AsyncHTTPClient as BrowserClient } from '@skillport/sdk-browser';",
        "import { AsyncHTTPClient } from '@skillport/sdk-node';",
        "import { SyncHTTPClient } from '@skillport/sdk-node/sync';",
        "import { runCli } from '@skillport/cli';",
        "import { startServer } from '@skillport/server';",
        "import { createSkillportMcpServer } from '@skillport/mcp';",
        'type Health = paths["/health"];',
        'export const used: unknown[] = [validateSkill, loadSkillDir, BrowserClient, AsyncHTTPClient, SyncHTTPClient, runCli, startServer, createSkillportMcpServer];',
        'export type { Health };',
        '',
      ].join('\n'),
    );
    writeFileSync(
      path.join(fullProject, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          skipLibCheck: false,
          noEmit: true,
          types: ['node'],
        },
        files: ['consumer.ts'],
      }),
    );
    const tsc = path.join(REPO_ROOT, 'node_modules/typescript/bin/tsc');
    const result = await run(process.execPath, [tsc, '-p', fullProject]).catch(
      (error: { stdout?: string; stderr?: string }) => ({
        stdout: error.stdout ?? '',
        stderr: error.stderr ?? 'failed',
      }),
    );
    expect(`${result.stdout}${result.stderr}`).toBe('');
  }, 300_000);

  it('ship the sources their source maps point at', () => {
    const missing: string[] = [];
    for (const [name] of PACKAGES) {
      const root = path.join(fullProject, 'node_modules', name);
      for (const map of filesUnder(root).filter((f) => f.endsWith('.map'))) {
        const { sources } = JSON.parse(readFileSync(map, 'utf8')) as { sources: string[] };
        for (const source of sources) {
          const file = path.resolve(path.dirname(map), source);
          if (!existsSync(file)) missing.push(`${path.relative(root, map)} → ${source}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('cite only documents a consumer has (the OpenAPI document, package docs)', () => {
    const citing: string[] = [];
    for (const [name] of PACKAGES) {
      const root = path.join(fullProject, 'node_modules', name);
      for (const file of filesUnder(root).filter((f) => /\.(d\.ts|ts|js|json|md)$/.test(f))) {
        const text = readFileSync(file, 'utf8');
        if (/\bDESIGN §|API-CONTRACT/.test(text)) citing.push(`${name}/${path.relative(root, file)}`);
      }
    }
    expect(citing).toEqual([]);
  });
});
