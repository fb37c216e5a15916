import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SkillFileInput, SkillWrite, Store } from '../../src/store/types.js';
import { dropEngineData, openEngineStore } from '../helpers/engine.js';

export const USER_ROOT = 'viking://user/alice/skills';
export const AGENT_ROOT = 'viking://agent/skills';

const encoder = new TextEncoder();

/**
 * A temp data dir with a store of the engine under test (`TEST_ENGINE`) in it; `reopen()` opens the
 * same database again; `cleanup()` closes the stores and removes the folder (and its schema on
 * PostgreSQL).
 */
export function openTempStore(options: { now?: () => number } = {}): {
  store: Store;
  dataDir: string;
  reopen(): Store;
  cleanup(): Promise<void>;
} {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'skillport-store-'));
  const opened: Store[] = [];
  const open = (): Store => {
    const store = openEngineStore(dataDir, options);
    opened.push(store);
    return store;
  };
  const store = open();
  return {
    store,
    dataDir,
    reopen: open,
    async cleanup() {
      for (const s of opened) await s.close();
      await dropEngineData(dataDir);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** SKILL.md text for a test skill. */
export function skillMd(name: string, description: string, body = `# ${name}\n\nDoes things.\n`): string {
  return `---\nname: ${name}\ndescription: ${description}\n---\n\n${body}`;
}

/** A write of a skill with SKILL.md plus the given auxiliary files. */
export function makeWrite(
  overrides: Partial<SkillWrite> & { name: string },
  extraFiles: Record<string, string | Uint8Array> = {},
): SkillWrite {
  const description = overrides.description ?? `Description of ${overrides.name}`;
  const body = overrides.body ?? `# ${overrides.name}\n\nDoes things.\n`;
  const files: SkillFileInput[] = [
    {
      path: 'SKILL.md',
      kind: 'definition',
      content: encoder.encode(skillMd(overrides.name, description, body)),
    },
    ...Object.entries(extraFiles).map(([p, content]) => ({
      path: p,
      kind: (p.startsWith('.') ? 'summary' : 'auxiliary') as SkillFileInput['kind'],
      content: typeof content === 'string' ? encoder.encode(content) : content,
    })),
  ];
  return {
    accountId: 'acme',
    rootUri: USER_ROOT,
    description,
    tags: [],
    allowedTools: [],
    frontmatter: { name: overrides.name, description },
    body,
    sourceMetadata: null,
    files,
    task: { type: 'add_skill', userId: 'alice' },
    ...overrides,
  };
}

export const text = (bytes: Uint8Array | undefined): string => new TextDecoder().decode(bytes);

/** Claim options of a test worker: a lease long enough never to run out during a test. */
export const TEST_CLAIM = { owner: 'test-worker', leaseMs: 3_600_000 } as const;

/**
 * Puts the search index back on FTS5's default merge settings (`automerge` 4, `crisismerge` 16), as
 * before schema version 18 (FTS5's config table takes them only through its own commands).
 */
export function setFtsDefaultMerges(db: import('better-sqlite3').Database): void {
  db.exec(`INSERT INTO skills_fts (skills_fts, rank) VALUES ('automerge', 4);
    INSERT INTO skills_fts (skills_fts, rank) VALUES ('crisismerge', 16);`);
}

/**
 * Undoes the schema steps after `version` that tests of older migrations need gone (each step that
 * adds columns or tables is listed here), then sets `user_version` to `version`. Steps that only
 * rewrite data (version 3's index rebuild) are the calling test's business.
 *
 * @param db - an open connection to a store file that no store has open
 * @param version - the schema version to go back to
 */
export function downgradeSchema(db: import('better-sqlite3').Database, version: number): void {
  if (version < 19) {
    db.exec(`DROP INDEX IF EXISTS tasks_retry_due;
      DROP INDEX IF EXISTS tasks_fair_order;
      DROP INDEX IF EXISTS tasks_fair_lane;
      ALTER TABLE tasks DROP COLUMN priority;
      ALTER TABLE tasks DROP COLUMN fair_round;`);
  }
  if (version < 18) setFtsDefaultMerges(db);
  if (version < 16) {
    const triggers = db
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE '%\\_counted\\_%' ESCAPE '\\'",
      )
      .pluck()
      .all() as string[];
    for (const name of triggers) db.exec(`DROP TRIGGER ${name}`);
    db.exec('DROP TABLE IF EXISTS change_counter;');
  }
  if (version < 15)
    db.exec('DROP TABLE IF EXISTS search_term_lists; DROP TABLE IF EXISTS search_term_build;');
  if (version < 14) db.exec('ALTER TABLE skill_files DROP COLUMN executable;');
  if (version < 12) db.exec('DROP INDEX IF EXISTS skill_changes_deleted;');
  if (version < 11) db.exec('DROP INDEX IF EXISTS skills_listing;');
  if (version < 10) {
    db.exec(`DROP TRIGGER IF EXISTS skill_files_usage_insert;
      DROP TRIGGER IF EXISTS skill_files_usage_delete;
      DROP TRIGGER IF EXISTS skill_files_usage_update;
      DROP TRIGGER IF EXISTS skills_usage_files_first;
      DROP TRIGGER IF EXISTS skills_usage_move;
      DROP TABLE IF EXISTS account_usage;`);
  }
  if (version < 7) {
    db.exec(`DROP TABLE IF EXISTS skill_changes;
      DROP TABLE IF EXISTS skill_revision_blobs;
      DROP INDEX IF EXISTS skill_files_by_sha256;
      DROP INDEX IF EXISTS skill_revisions_superseded;
      ALTER TABLE skill_revisions DROP COLUMN created_by;`);
  }
  if (version < 4) {
    db.exec(`DROP INDEX IF EXISTS tasks_lease_expiry;
      ALTER TABLE tasks DROP COLUMN lease_owner;
      ALTER TABLE tasks DROP COLUMN lease_token;
      ALTER TABLE tasks DROP COLUMN lease_expires_at;`);
  }
  db.pragma(`user_version = ${version}`);
}
