/** The CLI run in-process for what needs no server: usage, config, local validate, exit statuses. */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itCorpus, requireCorpus } from '../../../scripts/test-corpus.js';
import { describeFileChanges } from '../src/commands/install.js';
import * as cli from '../src/index.js';
import { expandInputs } from '../src/internal/bulk-inputs.js';
import { memoryIo } from './support/memory-io.js';

let dir: string;
const run = async (argv: string[], options: Parameters<typeof memoryIo>[0] = {}) => {
  const io = memoryIo({ env: { XDG_CONFIG_HOME: path.join(dir, 'cfg') }, cwd: dir, ...options });
  const code = await cli.runCli(argv, io);
  return { code, out: io.out(), err: io.err() };
};

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'skillport-cli-'));
  const skill = (folder: string, text: string) => {
    mkdirSync(path.join(dir, 'skills', folder), { recursive: true });
    writeFileSync(path.join(dir, 'skills', folder, 'SKILL.md'), text);
  };
  skill('good-skill', '---\nname: good-skill\ndescription: Does a good thing for tests\n---\n\n# Good\n');
  skill('bad-yaml', '---\nname: bad-yaml\ndescription: [unclosed\n---\n');
  skill('Wrong_Dir', '---\nname: other-name\ndescription: Name differs from folder\n---\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('runCli', () => {
  it('exports runCli, createProgram, CLI_VERSION and EXIT', () => {
    expect(Object.keys(cli).sort()).toEqual(['CLI_VERSION', 'EXIT', 'createProgram', 'runCli']);
    expect(cli.EXIT).toEqual({ ok: 0, user: 1, server: 2 });
  });

  it.each([
    [['--version'], 0, /^0\.1\.0\n$/],
    [['--help'], 0, /Usage: skillport/],
    [['skills', 'nope'], 1, /unknown command 'nope'/],
    [['validate', 'x'], 1, /unknown command 'validate'[\s\S]*did you mean `skillport skills validate`\?/],
    [['rm', 'x'], 1, /did you mean `skillport skills remove`\?/],
    // The verbs of the HTTP API and of other registries' CLIs name the same commands.
    [['get', 'x'], 1, /did you mean `skillport skills show` or `skillport config get`\?/],
    [['delete', 'x'], 1, /did you mean `skillport skills remove`\?/],
    [['search', 'x'], 1, /did you mean `skillport skills find`\?/],
    // `npm exec skillport -o json skills list` (no "--") keeps -o for npm and passes on "json".
    [['json', 'skills', 'list'], 1, /unknown command 'json'[\s\S]*npm exec -- skillport -o json skills list/],
    [['table', 'skills', 'find', 'pdf'], 1, /npm exec -- skillport -o table skills find pdf/],
    [['skills', 'get', '--help'], 0, /Usage: skillport skills show\|get \[options\] <name>/],
    [['skills', 'delete', '--help'], 0, /Usage: skillport skills remove\|rm \[options\] <name>/],
    [['config', 'show'], 0, /^KEY\s+VALUE\s+SOURCE\nurl\s/],
    [['config', 'list', 'url'], 0, /^http:\/\/127\.0\.0\.1:1933\n$/],
    [['skills', 'search', '--help'], 0, /Usage: skillport skills find\|search \[options\] <query\.\.\.>/],
    [['skills', 'list', '-o', 'yaml'], 1, /-o\/--output must be "table" or "json", got "yaml"/],
    [['add-skill'], 1, /missing required argument/],
    [['skills', 'validate', 'missing-dir'], 1, /no such file or folder/],
  ])('%j exits %i', async (argv, code, pattern) => {
    const result = await run(argv);
    expect(result.code).toBe(code);
    expect(result.out + result.err).toMatch(pattern);
  });
});

describe('help', () => {
  it('observer system names the exit status it gives an unhealthy server (2, a server error)', async () => {
    const help = await run(['observer', 'system', '--help']);
    expect(help.code).toBe(0);
    expect(help.out.replace(/\s+/g, ' ')).toContain(`exit ${cli.EXIT.server} when unhealthy`);
  });
});

describe('usage errors with -o json', () => {
  // "-o json prints only JSON (errors go to stderr as JSON)": a script reading stderr as JSON gets
  // the option parser's refusals in the same envelope as every other error.
  it.each([
    [['-o', 'json', 'skills', 'find'], /missing required argument 'query'/],
    [['skills', 'show', '--output', 'json'], /missing required argument 'name'/],
    [['--output=json', 'skills', 'list', '--bogus'], /unknown option '--bogus'/],
    [['-ojson', 'skills', 'nope'], /unknown command 'nope'/],
    [
      ['-o', 'json', 'validate', 'x'],
      /unknown command 'validate'.*did you mean `skillport skills validate`\?/,
    ],
  ])('%j → one JSON error on stderr, exit 1', async (argv, pattern) => {
    const result = await run(argv);
    expect(result.code).toBe(1);
    expect(result.out).toBe('');
    expect(result.err.endsWith('\n')).toBe(true);
    const parsed = JSON.parse(result.err) as { status: string; error: { code: string; message: string } };
    expect(parsed).toMatchObject({ status: 'error', error: { code: 'USER_ERROR' }, exit_code: 1 });
    expect(parsed.error.message).toMatch(pattern);
    expect(parsed.error.message).not.toMatch(/^error: /);
  });

  it('help and the table format are unchanged', async () => {
    const table = await run(['skills', 'find']);
    expect(table.err).toBe("error: missing required argument 'query'\n(run with --help for usage)\n");
    const help = await run(['-o', 'json', 'skills', 'find', '--help']);
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/^Usage: skillport skills find/);
  });
});

describe('skillport skills validate', () => {
  it('checks every skill folder under a folder and prints located diagnostics', async () => {
    const result = await run(['skills', 'validate', 'skills']);
    expect(result.code).toBe(1);
    const lines = result.out.trimEnd().split('\n');
    expect(lines).toContainEqual(
      expect.stringMatching(/^skills\/bad-yaml\/SKILL\.md:\d+:\d+ error yaml_format /),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(/^skills\/Wrong_Dir\/SKILL\.md:2:7 warning name_matches_directory /),
    );
    expect(result.err).toBe('3 files checked: 2 valid, 1 with errors, 1 warning\n');
  });

  it('--strict turns the folder-name warning into an error; -o json prints only JSON', async () => {
    const result = await run(['skills', 'validate', 'skills/Wrong_Dir', '--strict', '-o', 'json']);
    expect(result.code).toBe(1);
    expect(result.err).toBe('');
    const json = JSON.parse(result.out) as { results: Array<{ errors: Array<{ rule: string }> }> };
    expect(json.results[0]?.errors.map((e) => e.rule)).toContain('name_matches_directory');
  });

  it('exits 0 for a valid skill and refuses an unknown profile', async () => {
    expect((await run(['skills', 'validate', 'skills/good-skill'])).code).toBe(0);
    const bad = await run(['skills', 'validate', 'skills/good-skill', '--profile', 'nope']);
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/--profile must be one of openviking, agentskills, claude/);
  });
});

describe('skillport skills validate <MCP tool .json>', () => {
  it.each([
    [
      'one tool',
      {
        name: 'search_web',
        description: 'Search the web for current information',
        inputSchema: { type: 'object' },
      },
      ['tools/one.json#search-web'],
    ],
    [
      'a tools/list answer',
      {
        tools: [
          { name: 'read_file', description: 'Read a file from the disk', inputSchema: { type: 'object' } },
          { name: 'writeFile', description: 'Write a file to the disk', inputSchema: { type: 'object' } },
        ],
      },
      ['tools/list.json#read-file', 'tools/list.json#write-file'],
    ],
  ])('validates %s as the server would (converted, then checked)', async (_label, json, files) => {
    const file = files[0]!.split('#')[0]!;
    mkdirSync(path.join(dir, 'tools'), { recursive: true });
    writeFileSync(path.join(dir, file), JSON.stringify(json));
    const result = await run(['skills', 'validate', file, '-o', 'json']);
    expect(result.code, result.err).toBe(0);
    const out = JSON.parse(result.out) as {
      results: Array<{ file: string; valid: boolean; errors: unknown[] }>;
    };
    expect(out.results.map((r) => r.file)).toEqual(files);
    expect(out.results.every((r) => r.valid && r.errors.length === 0)).toBe(true);
  });

  it('takes a folder of MCP tool .json files, as add-skill does (same inputs)', async () => {
    mkdirSync(path.join(dir, 'tool-folder', 'sub'), { recursive: true });
    writeFileSync(
      path.join(dir, 'tool-folder/b.json'),
      JSON.stringify({
        name: 'fetch_page',
        description: 'Fetch a web page by URL',
        inputSchema: { type: 'object' },
      }),
    );
    writeFileSync(
      path.join(dir, 'tool-folder/a.json'),
      JSON.stringify({
        tools: [
          { name: 'list_dir', description: 'List the entries of a folder', inputSchema: { type: 'object' } },
          { name: 'stat_file', description: 'Describe one file on disk', inputSchema: { type: 'object' } },
        ],
      }),
    );
    writeFileSync(path.join(dir, 'tool-folder/notes.txt'), 'not a tool');
    const result = await run(['skills', 'validate', 'tool-folder', '-o', 'json']);
    expect(result.code, result.err).toBe(0);
    const out = JSON.parse(result.out) as { results: Array<{ file: string; valid: boolean }> };
    expect(out.results.map((r) => r.file)).toEqual([
      'tool-folder/a.json#list-dir',
      'tool-folder/a.json#stat-file',
      'tool-folder/b.json#fetch-page',
    ]);
    const items = await expandInputs(memoryIo({ cwd: dir }), ['tool-folder']);
    expect(items).toHaveLength(out.results.length);
    const text = await run(['skills', 'validate', 'tool-folder']);
    expect(text.err).toBe('3 files checked: 3 valid, 0 with errors, 0 warnings\n');
  });

  it('a folder with neither SKILL.md nor .json files is refused, naming both', async () => {
    mkdirSync(path.join(dir, 'empty-folder'), { recursive: true });
    writeFileSync(path.join(dir, 'empty-folder/readme.txt'), 'nothing here');
    const result = await run(['skills', 'validate', 'empty-folder']);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/no SKILL\.md in .*empty-folder or its sub-folders, and no \.json tool files/);
  });

  itCorpus('validates the corpus folder of MCP tools: one result per tool add-skill would add', async () => {
    const mcp = path.join(requireCorpus(), 'mcp');
    const result = await run(['skills', 'validate', mcp, '-o', 'json']);
    expect(result.err).not.toMatch(/no SKILL\.md/);
    const out = JSON.parse(result.out) as { results: Array<{ file: string }> };
    const items = await expandInputs(memoryIo({ cwd: dir }), [mcp]);
    expect(items.length).toBeGreaterThanOrEqual(39);
    expect(out.results).toHaveLength(items.length);
  });

  it('refuses JSON that holds no MCP tool, saying what it expected', async () => {
    mkdirSync(path.join(dir, 'tools'), { recursive: true });
    writeFileSync(path.join(dir, 'tools/none.json'), JSON.stringify({ name: 'x' }));
    const result = await run(['skills', 'validate', 'tools/none.json']);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(
      /is not a skill: a \.json file must hold an MCP tool \(an object with "inputSchema"\)/,
    );
  });

  it('shows the suggested fix of an issue in text output', async () => {
    const result = await run(['skills', 'validate', 'skills/Wrong_Dir']);
    expect(result.out).toMatch(/warning name_matches_directory .*\(fix: "[^"]+"\)$/m);
  });
});

describe('one verdict for add-skill and validate; local refusals before any request', () => {
  // No server listens on port 9: anything that reached the network would fail with exit 2.
  const offline = { env: { XDG_CONFIG_HOME: '/nonexistent-cfg', SKILLPORT_URL: 'http://127.0.0.1:9' } };

  it('a package.json is refused by both, with the same message', async () => {
    writeFileSync(
      path.join(dir, 'package.json'),
      JSON.stringify({ name: 'my-app', version: '1.0.0', description: 'An app', scripts: {} }),
    );
    const add = await run(['add-skill', 'package.json'], offline);
    const validate = await run(['skills', 'validate', 'package.json'], offline);
    expect(add.code).toBe(1);
    expect(validate.code).toBe(1);
    const message = /package\.json is not a skill: a \.json file must hold an MCP tool/;
    expect(add.err).toMatch(message);
    expect(validate.err).toMatch(message);
  });

  it('an MCP tool .json saved with a UTF-8 byte order mark (Windows editors) is read by both', async () => {
    const tool = {
      name: 'bom_tool',
      description: 'A tool saved with a byte order mark',
      inputSchema: { type: 'object' },
    };
    mkdirSync(path.join(dir, 'bom-tools'), { recursive: true });
    writeFileSync(path.join(dir, 'bom-tools/bom_tool.json'), `\ufeff${JSON.stringify(tool, null, 2)}\r\n`);
    const validate = await run(['skills', 'validate', 'bom-tools/bom_tool.json', '-o', 'json'], offline);
    expect(validate.code, validate.err).toBe(0);
    expect(JSON.parse(validate.out).results[0]).toMatchObject({ valid: true, name: 'bom-tool' });
    // add-skill gets as far as the network (nothing listens): the file was read as a tool.
    for (const input of ['bom-tools/bom_tool.json', 'bom-tools']) {
      const add = await run(['add-skill', input], offline);
      expect(add.err, input).not.toMatch(/not valid JSON|not a skill/);
      expect(add.err, input).toMatch(/cannot reach|NETWORK_ERROR/);
    }
  });

  it.each([
    ['a missing comma', '{\n  "name": "x"\n  "description": "y"\n}\n', 'line 3, column 3'],
    ['a cut-off file', '{\n  "name": "x",\n', 'line 3, column 1'],
  ])('JSON with %s is refused by both, naming the line and column', async (_label, text, where) => {
    writeFileSync(path.join(dir, 'broken.json'), text);
    const add = await run(['add-skill', 'broken.json'], offline);
    const validate = await run(['skills', 'validate', 'broken.json'], offline);
    for (const result of [add, validate]) {
      expect(result.code).toBe(1);
      expect(result.err).toContain(`broken.json is not valid JSON at ${where}:`);
    }
  });

  it('a skill object {name, description, content} passes validate', async () => {
    writeFileSync(
      path.join(dir, 'structured.json'),
      JSON.stringify({
        name: 'from-json',
        description: 'A skill given as a JSON object',
        content: '# From JSON\n',
      }),
    );
    const validate = await run(['skills', 'validate', 'structured.json', '-o', 'json'], offline);
    expect(validate.code, validate.err).toBe(0);
    expect(JSON.parse(validate.out).results[0]).toMatchObject({
      file: 'structured.json#from-json',
      valid: true,
    });
  });

  it.each([
    [
      ['add-skill', 'does-not-exist'],
      /no such file or folder: does-not-exist .*starts with a "---" frontmatter fence/,
    ],
    [['skills', 'update', 'x', 'missing/SKILL.md'], /no such file or folder: missing\/SKILL\.md/],
    [['discover', '--cwd', '/nonexistent-project'], /--cwd \/nonexistent-project: no such folder/],
    [
      ['skills', 'show', 'some-skill', '--files', '--level', '1'],
      /--files lists the files of the skill and --level prints one level of it: use one of them/,
    ],
    [
      ['discover', '--path', 'no-such-skill-folder'],
      /--path no-such-skill-folder: no such file or folder \(/,
    ],
  ])('%j fails locally with exit 1', async (argv, message) => {
    const result = await run(argv, offline);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(message);
    expect(result.err).not.toMatch(/NETWORK_ERROR|cannot reach/);
  });

  it('a name starting with "-" gets a hint to put it after "--"', async () => {
    const result = await run(['skills', 'show', '-21risk-automation'], offline);
    expect(result.code).toBe(1);
    expect(result.err).toContain('hint: a name starting with "-" goes after "--"');
    expect(result.err).toContain('-- -21risk-automation');
  });

  it('an option after "--" gets a hint to put it before "--"', async () => {
    const result = await run(['skills', 'show', '--', '-21risk-automation', '--level', '0'], offline);
    expect(result.code).toBe(1);
    expect(result.err).toContain('too many arguments');
    expect(result.err).toContain(
      'hint: everything after "--" is read as a name or path, options too ("--level"); put options before "--"',
    );
    const json = await run(['-o', 'json', 'skills', 'show', '--', 'x', '--files'], offline);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.err).error.message).toContain('options too ("--files"); put options before "--"');
  });

  it('subcommand help lists the global options', async () => {
    const result = await run(['skills', 'show', '--help']);
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/Global Options:[\s\S]*--url <url>[\s\S]*--api-key <key>/);
    expect(result.out).toMatch(/-o, --output <format>/);
  });

  it('serve --port agrees with its help about 0 and refuses other values', async () => {
    const help = await run(['serve', '--help']);
    expect(help.out).toMatch(/0 = any free one/);
    for (const port of ['abc', '-1', '70000', '1.5']) {
      const result = await run(['serve', '--port', port], offline);
      expect(result.code, port).toBe(1);
      expect(result.err).toMatch(/--port must be a TCP port from 0 to 65535 \(0 = any free port\)/);
    }
  });

  // A setting the user chose that the server refuses is a user error (exit 1) naming the fix.
  it('serve refuses a public --host in dev mode with exit 1 and names both fixes', async () => {
    const dataDir = path.join(dir, 'serve-public');
    const result = await run(['serve', '--host', '0.0.0.0', '--port', '0', '--data-dir', dataDir], offline);
    expect(result.code, result.err).toBe(1);
    expect(result.err).toMatch(/dev mode/);
    expect(result.err).toContain('--host 127.0.0.1');
    expect(result.err).toContain('SKILLPORT_ROOT_API_KEY');
  });

  it.runIf(process.platform === 'linux')(
    'serve refuses a --data-dir that cannot be created (/proc) at once with exit 1, naming the folder and the flag',
    async () => {
      const result = await run(['serve', '--data-dir', '/proc/skillport-nope', '--port', '0'], offline);
      expect(result.code, result.err).toBe(1);
      expect(result.err).toContain(
        'cannot create the folder /proc/skillport-nope: /proc exists but does not allow',
      );
      expect(result.err).toContain('--data-dir /proc/skillport-nope');
    },
  );

  it('serve refuses a --data-dir below a file with exit 1', async () => {
    const file = path.join(dir, 'a-file');
    writeFileSync(file, 'x');
    const result = await run(['serve', '--data-dir', path.join(file, 'data'), '--port', '0'], offline);
    expect(result.code, result.err).toBe(1);
    expect(result.err).toContain(`${file} is a file, not a folder`);
  });

  it('an SDK error raised before any request keeps its code in -o json (a --url that is not http)', async () => {
    const table = await run(['--url', 'ftp://example.com', 'skills', 'list']);
    expect(table.code).toBe(1);
    expect(table.err).toBe(
      'error: url must be an absolute http(s) URL such as http://127.0.0.1:1933, got "ftp://example.com"\n  field: url\n  reason: not_http_url\n',
    );
    const json = await run(['--url', 'ftp://example.com', 'skills', 'list', '-o', 'json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.err)).toMatchObject({
      status: 'error',
      error: { code: 'INVALID_ARGUMENT', details: { field: 'url', reason: 'not_http_url' } },
      exit_code: 1,
    });
  });

  it('serve on a port already in use fails with exit 2, naming the port, and creates no data folder', async () => {
    const held = createServer();
    await new Promise<void>((resolve) => held.listen(0, '127.0.0.1', resolve));
    try {
      const port = (held.address() as AddressInfo).port;
      const dataDir = path.join(dir, 'serve-port-taken');
      const result = await run(['serve', '--port', String(port), '--data-dir', dataDir], offline);
      expect(result.code, result.err).toBe(2);
      expect(result.err).toContain(`127.0.0.1:${port} is already in use`);
      expect(existsSync(dataDir)).toBe(false);
    } finally {
      await new Promise((resolve) => held.close(resolve));
    }
  });

  it('serve refuses an unsupported --database-url with exit 1', async () => {
    const result = await run(['serve', '--database-url', 'mysql://u:p@x', '--port', '0'], offline);
    expect(result.code, result.err).toBe(1);
    expect(result.err).toMatch(/unsupported URL "mysql:\/\/u:\*\*\*@x"/);
  });
});

describe('skillport config', () => {
  it.runIf(process.platform === 'linux')(
    'config set fails at once, naming the folder, where its folder cannot be created',
    async () => {
      const result = await run(['config', 'set', 'url', 'http://10.0.0.5:1933'], {
        env: { XDG_CONFIG_HOME: '/proc/skillport-nope' },
      });
      expect(result.code, result.err).toBe(1);
      expect(result.err).toContain('cannot create the folder /proc/skillport-nope/skillport');
    },
  );

  it('config set url refuses a URL with a query or fragment, and commands given one fail clearly', async () => {
    const saved = await run(['config', 'set', 'url', 'http://127.0.0.1:9?token=x']);
    expect(saved.code).toBe(1);
    expect(saved.err).toContain("url must be the server's base URL, without a query (?…) or fragment (#…)");
    const listed = await run(['skills', 'list', '--url', 'http://127.0.0.1:9?x=1']);
    expect(listed.code).toBe(1);
    expect(listed.err).toContain("url must be the server's base URL");
    expect(listed.err).not.toMatch(/Cannot read properties/);
  });

  it('a URL carrying a user name or password is refused before any request, the password not shown', async () => {
    const saved = await run(['config', 'set', 'url', 'http://alice:s3cret-pass@127.0.0.1:9']);
    expect(saved.code).toBe(1);
    expect(saved.err).toContain('url must not carry a user name or password');
    expect(saved.err).not.toContain('s3cret');
    const shown = await run(['config', 'get', '-o', 'json']);
    expect(JSON.parse(shown.out).settings).not.toContainEqual(expect.objectContaining({ source: 'file' }));
    const listed = await run(['skills', 'list', '--url', 'http://alice:s3cret-pass@127.0.0.1:9']);
    expect(listed.code).toBe(1);
    expect(listed.err).toContain('url must not carry a user name or password');
    expect(listed.err).toContain('reason: credentials');
    expect(listed.err).not.toContain('s3cret');
    expect(listed.err).not.toContain('cannot reach');
  });

  it('config set api_key refuses a blank key or one holding whitespace, and saves nothing', async () => {
    for (const value of ['', '   ', 'sk-abc def', 'sk-abcdef\n']) {
      const result = await run(['config', 'set', 'api_key', value]);
      expect(result.code, value).toBe(1);
      expect(result.err).toMatch(/api_key must not (be empty or blank|contain spaces)/);
    }
    const shown = await run(['config', 'get', '-o', 'json']);
    expect(JSON.parse(shown.out).settings).not.toContainEqual(expect.objectContaining({ source: 'file' }));
  });

  it('sets, shows with sources, and unsets', async () => {
    expect((await run(['config', 'set', 'url', 'http://10.0.0.5:1933'])).code).toBe(0);
    expect((await run(['config', 'set', 'api-key', 'sk-abcdefghijkl'])).code).toBe(0);
    const shown = await run(['config', 'get', '-o', 'json']);
    expect(JSON.parse(shown.out).settings).toEqual([
      { key: 'url', value: 'http://10.0.0.5:1933', source: 'file' },
      { key: 'api_key', value: 'sk-a…kl', source: 'file' },
    ]);
    const fromEnv = await run(['config', 'get', 'url'], {
      env: { XDG_CONFIG_HOME: path.join(dir, 'cfg'), SKILLPORT_URL: 'http://env:1' },
    });
    expect(fromEnv.out).toBe('http://env:1\n');
    expect((await run(['config', 'unset', 'url'])).code).toBe(0);
    expect((await run(['config', 'get', 'url'])).out).toBe('http://127.0.0.1:1933\n');
    const wrong = await run(['config', 'set', 'colour', 'blue']);
    expect(wrong.code).toBe(1);
    expect(wrong.err).toMatch(/unknown config key "colour"/);
  });
});

describe('skillport discover', () => {
  it('lists declared and shipped skills of installed packages and reports name collisions', async () => {
    const project = path.join(dir, 'project');
    const write = (file: string, text: string) => {
      mkdirSync(path.dirname(path.join(project, file)), { recursive: true });
      writeFileSync(path.join(project, file), text);
    };
    write(
      'package.json',
      JSON.stringify({ name: 'proj', version: '1.0.0', dependencies: { 'pkg-a': '1', 'pkg-b': '2' } }),
    );
    write(
      'node_modules/pkg-a/package.json',
      JSON.stringify({ name: 'pkg-a', version: '1.2.0', skills: { alpha: './s/SKILL.md' } }),
    );
    write(
      'node_modules/pkg-a/s/SKILL.md',
      '---\nname: alpha\ndescription: Alpha skill declared by pkg-a\n---\n',
    );
    write('node_modules/pkg-b/package.json', JSON.stringify({ name: 'pkg-b', version: '2.0.0' }));
    write(
      'node_modules/pkg-b/x/SKILL.md',
      '---\nname: beta\ndescription: Beta skill shipped in pkg-b\n---\n',
    );
    write('extra/SKILL.md', '---\nname: alpha\ndescription: Same name, given by path\n---\n');

    const json = await run(['discover', '--cwd', 'project', '--path', 'extra', '--json']);
    expect(json.code, json.err).toBe(0);
    const result = JSON.parse(json.out) as {
      skills: Array<{ name: string; source: { strategy: string; package?: string } }>;
      diagnostics: Array<{ kind: string; name?: string }>;
    };
    expect(result.skills.map((s) => [s.name, s.source.strategy, s.source.package])).toEqual([
      ['alpha', 'declared', 'pkg-a'],
      ['beta', 'shipped', 'pkg-b'],
    ]);
    expect(result.diagnostics).toContainEqual(
      expect.objectContaining({ kind: 'name_collision', name: 'alpha' }),
    );

    const table = await run(['discover', '--cwd', 'project', '--path', 'extra']);
    expect(table.out).toMatch(
      /^NAME\s+FROM\s+PACKAGE\s+PATH\s+DESCRIPTION\nalpha\s+declared\s+pkg-a@1\.2\.0/,
    );
    expect(table.out).toMatch(/warning name_collision: /);
  });

  it("prints each skill's issues as skills validate does, and fails when a skill is lost", async () => {
    const project = path.join(dir, 'project-issues');
    const write = (file: string, text: string) => {
      mkdirSync(path.dirname(path.join(project, file)), { recursive: true });
      writeFileSync(path.join(project, file), text);
    };
    write('package.json', JSON.stringify({ name: 'proj', version: '1.0.0' }));
    write('skills/bad/SKILL.md', '---\nname: Bad Name\ndescription: A skill whose name holds a space\n---\n');
    const cwd = { cwd: project };
    const listed = await run(['discover', '--path', 'skills'], cwd);
    expect(listed.code, listed.err).toBe(0);
    const validated = await run(['skills', 'validate', 'skills/bad'], cwd);
    const lines = (text: string) =>
      text.split('\n').filter((line) => line.startsWith('skills/bad/SKILL.md:'));
    expect(lines(validated.out).length).toBeGreaterThanOrEqual(2);
    expect(lines(listed.out)).toEqual(lines(validated.out));
    expect(listed.err).toMatch(/^1 skill from 1 package, 3 issues, 0 diagnostics$/m);

    // A skill outside the project is named by its absolute path, as validate names it (not `../…`).
    const outside = path.join(dir, 'outside-issues', 'bad');
    mkdirSync(outside, { recursive: true });
    writeFileSync(
      path.join(outside, 'SKILL.md'),
      '---\nname: Bad Name\ndescription: A skill whose name holds a space\n---\n',
    );
    const far = await run(['discover', '--no-declared', '--no-shipped', '--path', outside], cwd);
    const farValidated = await run(['skills', 'validate', outside], cwd);
    const issueLines = (text: string) =>
      text.split('\n').filter((line) => / (warning|error) [a-z_]+ /.test(line));
    expect(issueLines(farValidated.out).length).toBeGreaterThanOrEqual(2);
    expect(issueLines(far.out)).toEqual(issueLines(farValidated.out));
    expect(far.out).toContain(`${path.join(outside, 'SKILL.md')}:`);

    // A declared path that is not there loses a skill: exit 1, with and without --json.
    write('package.json', JSON.stringify({ name: 'proj', version: '1.0.0', skills: ['./gone'] }));
    const lost = await run(['discover', '--path', 'skills'], cwd);
    expect(lost.code).toBe(1);
    expect(lost.out).toMatch(/error missing_path: /);
    const lostJson = await run(['discover', '--path', 'skills', '--json'], cwd);
    expect(lostJson.code).toBe(1);
    expect(JSON.parse(lostJson.out).diagnostics).toContainEqual(
      expect.objectContaining({ kind: 'missing_path', severity: 'error' }),
    );

    // A broken SKILL.md an installed package ships (a test fixture, say) is reported, and fails nothing.
    write('package.json', JSON.stringify({ name: 'proj', version: '1.0.0', dependencies: { dep: '1' } }));
    write('node_modules/dep/package.json', JSON.stringify({ name: 'dep', version: '1.0.0' }));
    write('node_modules/dep/test/fixtures/broken/SKILL.md', 'no frontmatter here\n');
    const shipped = await run(['discover', '--path', 'skills'], cwd);
    expect(shipped.code, shipped.err).toBe(0);
    expect(shipped.out).toMatch(/error parse_error: /);
  });
});

describe('describeFileChanges (the DETAIL of update and of install at another revision)', () => {
  const f = (path: string, sha256: string) => ({ path, sha256 });
  it.each([
    [[f('SKILL.md', 'a')], [f('SKILL.md', 'b')], 'SKILL.md changed'],
    [
      [f('SKILL.md', 'a'), f('x.md', '1')],
      [f('SKILL.md', 'b'), f('x.md', '2')],
      '2 files changed (SKILL.md too)',
    ],
    [
      [f('SKILL.md', 'a'), f('x.md', '1')],
      [f('SKILL.md', 'a'), f('y.md', '1'), f('z.md', '1')],
      '2 files added, 1 file removed',
    ],
    [[f('SKILL.md', 'a')], [f('SKILL.md', 'a')], 'same files'],
  ])('%j → %j: %s', (before, after, expected) => {
    expect(describeFileChanges(before, after)).toBe(expected);
  });
});
