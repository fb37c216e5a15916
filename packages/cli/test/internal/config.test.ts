import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configPath, readConfig, resolveSettings, writeConfig } from '../../src/internal/config.js';

let home: string;
beforeEach(() => {
  home = mkdtempSync(path.join(os.tmpdir(), 'skillport-config-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe('configPath', () => {
  it.each([
    [{ XDG_CONFIG_HOME: '/x/cfg', HOME: '/h' }, '/x/cfg/skillport/config.json'],
    [{ HOME: '/h' }, '/h/.config/skillport/config.json'],
    [{ XDG_CONFIG_HOME: '  ', HOME: '/h' }, '/h/.config/skillport/config.json'],
  ])('%j → %s', (env, expected) => {
    expect(configPath(env)).toBe(expected);
  });
});

describe('resolveSettings', () => {
  it('prefers flag, then env, then file, then the default', async () => {
    const env = { XDG_CONFIG_HOME: home };
    await writeConfig(env, { url: 'http://file:1', api_key: 'file-key' });
    const cases: Array<
      [NodeJS.ProcessEnv, { url?: string; apiKey?: string }, string, string, string | undefined]
    > = [
      [env, {}, 'http://file:1', 'file', 'file-key'],
      [
        { ...env, SKILLPORT_URL: 'http://env:2', SKILLPORT_API_KEY: 'env-key' },
        {},
        'http://env:2',
        'env',
        'env-key',
      ],
      [
        { ...env, SKILLPORT_URL: 'http://env:2' },
        { url: 'http://flag:3', apiKey: 'k' },
        'http://flag:3',
        'flag',
        'k',
      ],
      [{ XDG_CONFIG_HOME: path.join(home, 'none') }, {}, 'http://127.0.0.1:1933', 'default', undefined],
    ];
    for (const [caseEnv, flags, url, source, key] of cases) {
      const settings = await resolveSettings(caseEnv, flags);
      expect(settings.url).toEqual({ value: url, source });
      expect(settings.apiKey.value).toBe(key);
    }
  });
});

describe('readConfig / writeConfig', () => {
  it('writes a file only the user can read', async () => {
    const file = await writeConfig({ XDG_CONFIG_HOME: home }, { api_key: 'secret' });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ api_key: 'secret' });
  });

  it('reads a file saved with a byte order mark and CRLF line ends (Windows editors, PowerShell 5)', async () => {
    const env = { XDG_CONFIG_HOME: home };
    await writeConfig(env, {});
    writeFileSync(configPath(env), '\uFEFF{\r\n  "url": "http://127.0.0.1:2000"\r\n}\r\n');
    expect(await readConfig(env)).toEqual({ url: 'http://127.0.0.1:2000' });
  });

  it('names the file and the problem when it is broken', async () => {
    const env = { XDG_CONFIG_HOME: home };
    await writeConfig(env, {});
    writeFileSync(configPath(env), '{"url": ');
    await expect(readConfig(env)).rejects.toThrow(/config\.json is not valid JSON/);
    writeFileSync(configPath(env), '[1]');
    await expect(readConfig(env)).rejects.toThrow(/must hold a JSON object/);
  });
});
