import { describe, expect, it } from 'vitest';
import { pathArg } from '../../src/internal/path-arg.js';

describe('pathArg: a path in a command line the CLI suggests', () => {
  it.each([
    ['/home/me/proj', 'skills/pdf-tools', 'skills/pdf-tools'],
    ['/home/me/proj', '/home/me/proj/skills/pdf-tools', 'skills/pdf-tools'],
    ['/home/me/proj', '/home/me/proj', '.'],
    // Outside the working folder: absolute, not a `../../` climb.
    ['/home/me/proj', '/srv/skills/pdf-tools', '/srv/skills/pdf-tools'],
    ['/home/me/proj', '../other/pdf-tools', '/home/me/other/pdf-tools'],
    // A space or another shell character: quoted.
    ['/home/me/proj', 'my skills/pdf-tools', "'my skills/pdf-tools'"],
    ['/home/me/proj', "/srv/it's here", "'/srv/it'\\''s here'"],
    ['/home/me/proj', 'skills/$HOME', "'skills/$HOME'"],
    // A leading "-" would be read as an option.
    ['/home/me/proj', '-21risk-automation', './-21risk-automation'],
    ['/home/me/my proj', '/home/me/my proj/-x y', "'./-x y'"],
  ])('from %s, %s → %s', (cwd, target, expected) => {
    expect(pathArg(cwd, target, 'linux')).toBe(expected);
  });

  it.each([
    ['C:\\Users\\me\\proj', 'skills\\pdf-tools', 'skills\\pdf-tools'],
    ['C:\\Users\\me\\proj', 'D:\\skills\\pdf-tools', 'D:\\skills\\pdf-tools'],
    ['C:\\Users\\me\\proj', 'my skills\\pdf-tools', '"my skills\\pdf-tools"'],
    ['C:\\Users\\me\\proj', '-x', '.\\-x'],
  ])('on Windows, from %s, %s → %s', (cwd, target, expected) => {
    expect(pathArg(cwd, target, 'win32')).toBe(expected);
  });
});
