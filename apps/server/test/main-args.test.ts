import { describe, expect, it } from 'vitest';
import { MAIN_USAGE, readMainArgs } from '../src/main-args.js';

describe('readMainArgs (the command line of dist/main.js)', () => {
  it('starts with no arguments', () => {
    expect(readMainArgs([])).toEqual({ action: 'start' });
  });

  it('prints the usage for --help or -h anywhere', () => {
    for (const args of [['--help'], ['-h'], ['--port', '1', '--help']]) {
      expect(readMainArgs(args)).toEqual({ action: 'exit', code: 0, stdout: MAIN_USAGE });
    }
  });

  it('names the environment variable for an option of skillport serve, with its value', () => {
    expect(readMainArgs(['--port', '8080'])).toEqual({
      action: 'exit',
      code: 2,
      stderr:
        'dist/main.js takes no arguments (got "--port"): set SKILLPORT_PORT instead (SKILLPORT_PORT=8080 node dist/main.js), or run `skillport serve --port 8080`\n',
    });
    const eq = readMainArgs(['--database-url=postgres://u@db/x']);
    expect(eq).toMatchObject({ code: 2 });
    expect((eq as { stderr: string }).stderr).toContain(
      'set SKILLPORT_DATABASE_URL instead (SKILLPORT_DATABASE_URL=postgres://u@db/x node dist/main.js)',
    );
    expect((readMainArgs(['--host']) as { stderr: string }).stderr).toContain(
      'SKILLPORT_HOST=… node dist/main.js',
    );
    expect((readMainArgs(['--data-dir', "it's here"]) as { stderr: string }).stderr).toContain(
      "SKILLPORT_DATA_DIR='it'\\''s here' node dist/main.js",
    );
  });

  it('refuses any other argument, pointing at the environment', () => {
    const verdict = readMainArgs(['--verbose']);
    expect(verdict).toMatchObject({ action: 'exit', code: 2 });
    expect((verdict as { stderr: string }).stderr).toBe(
      'dist/main.js takes no arguments (got "--verbose"): settings are environment variables (SKILLPORT_PORT, SKILLPORT_DATA_DIR, …; --help lists the main ones)\n',
    );
  });
});
