import path from 'node:path';

/**
 * A local path as an argument of a command line the CLI suggests, so that the line works when pasted
 * into a shell: relative to the working folder when the path lies under it, else absolute (no
 * `../../` climb); `./` in front of a relative path starting with `-` (else it reads as an option);
 * quoted when it holds a space or another character a shell would act on.
 *
 * @param cwd - the working folder the suggestion is run from
 * @param target - the path (absolute, or relative to `cwd`)
 * @param platform - the shell's platform (default `process.platform`): on Windows quoted with `"…"`
 *   (cmd and PowerShell), elsewhere with `'…'` (a `'` inside written as `'\''`)
 * @returns `skills/pdf-tools`, `/srv/skills/pdf-tools`, `'my skills/pdf-tools'`, `./-x`
 * @example `skillport add-skill ${pathArg(process.cwd(), folder)}`
 */
export function pathArg(cwd: string, target: string, platform: NodeJS.Platform = process.platform): string {
  const paths = platform === 'win32' ? path.win32 : path.posix;
  const full = paths.resolve(cwd, target);
  const relative = paths.relative(cwd, full);
  let shown: string;
  if (relative === '') shown = '.';
  else if (relative === '..' || relative.startsWith(`..${paths.sep}`) || paths.isAbsolute(relative))
    shown = full;
  else shown = relative.startsWith('-') ? `.${paths.sep}${relative}` : relative;
  return quoted(shown, platform);
}

/** Characters no shell acts on; an argument with any other is quoted. */
const PLAIN = /^[A-Za-z0-9_./:@%+=,-]+$/;
const PLAIN_WINDOWS = /^[A-Za-z0-9_./:@+=,\\-]+$/;

function quoted(text: string, platform: NodeJS.Platform): string {
  if (platform === 'win32') return PLAIN_WINDOWS.test(text) ? text : `"${text}"`;
  return PLAIN.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}
