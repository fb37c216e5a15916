/** Turns any failure into a message on stderr and an exit status (0 ok, 1 user error, 2 server/network). */
import { isApiError, isLocalError, isNetworkError, isTimeoutError } from '@skillport/sdk-node';
import { CliError, type CliIo, EXIT, type OutputFormat } from './io.js';
import { nameArgs } from './name-arg.js';
import { escapeInlineControls, escapeTerminalControls } from './terminal-text.js';

interface IssueLike {
  rule?: unknown;
  severity?: unknown;
  message?: unknown;
  field?: unknown;
  line?: unknown;
  column?: unknown;
}

/**
 * One line per detail. Details echo what was sent (a file path from an upload, an unknown field's
 * name, a skill's text), so every control character in them is shown as an escape: a raw tab or line
 * break would break the layout, and ESC sequences would reach the terminal.
 */
function describeDetails(details: Record<string, unknown> | undefined): string[] {
  if (!details) return [];
  const lines: string[] = [];
  const line = (text: string) => lines.push(`  ${escapeInlineControls(text)}`);
  if (Array.isArray(details.issues)) {
    for (const raw of details.issues as IssueLike[]) {
      const where =
        typeof raw.line === 'number' ? `${raw.line}:${typeof raw.column === 'number' ? raw.column : 1}` : '-';
      line(
        `${where} ${String(raw.severity ?? 'error')} ${String(raw.rule ?? '')} ${String(raw.message ?? '')}`,
      );
    }
  }
  if (Array.isArray(details.validation_errors)) {
    for (const raw of details.validation_errors as Array<{ loc?: unknown; message?: unknown }>) {
      const loc = Array.isArray(raw.loc) ? raw.loc.join('.') : String(raw.loc ?? '');
      line(`${loc}: ${String(raw.message ?? '')}`);
    }
  }
  for (const [key, value] of Object.entries(details)) {
    if (key === 'issues' || key === 'validation_errors') continue;
    line(`${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`);
  }
  return lines;
}

/**
 * Reports `error` on stderr (JSON with `-o json`) and returns the exit status.
 * @returns 1 for refused input (4xx, local problems), 2 for server (5xx) and network failures.
 */
export function reportError(io: CliIo, format: OutputFormat, error: unknown): number {
  let exitCode: number = EXIT.user;
  let code = 'ERROR';
  let message = error instanceof Error ? error.message : String(error);
  let details: Record<string, unknown> | undefined;
  const extra: string[] = [];
  if (isApiError(error)) {
    exitCode = error.status >= 500 ? EXIT.server : EXIT.user;
    code = error.code;
    details = error.details;
    extra.push(...describeDetails(details));
    if (error.status === 401) {
      extra.push(
        '  pass an API key with --api-key <key>, SKILLPORT_API_KEY, or `skillport config set api_key <key>`',
      );
    }
    if (
      error.status === 404 &&
      typeof details?.resource === 'string' &&
      details.resource.startsWith('/api/v1/api/v1/')
    ) {
      extra.push("  --url is the server's base URL (e.g. http://127.0.0.1:1933), without /api/v1");
    }
    // A revision not kept (install name@rev, show --revision, restore): the CLI command that lists them.
    const revisionOf =
      error.status === 404 && details?.type === 'revision' && typeof details.resource === 'string'
        ? /\/skills\/([^/@]+)@[^/]*$/.exec(details.resource)?.[1]
        : undefined;
    if (revisionOf !== undefined) {
      extra.push(
        `  list the revisions the server keeps with: skillport skills history ${escapeInlineControls(nameArgs(revisionOf))}`,
      );
    }
    if (error.status === 403 && details?.role === 'root') {
      extra.push(
        '  a root key manages accounts, users and keys only: make a key for skills with `skillport keys create --user <id> [--role admin] --api-key <root key>`, then use that key',
      );
    }
    // A write whose wait ran out is stored all the same: sending it again would store it again.
    if (error.code === 'DEADLINE_EXCEEDED' && typeof details?.task_id === 'string') {
      extra.push(
        `  the skill is stored; follow its processing with: skillport task ${escapeInlineControls(details.task_id)} (or skillport wait)`,
      );
    }
    if (error.requestId) extra.push(`  request id: ${escapeInlineControls(error.requestId)}`);
    message = `${message} (${error.code}, HTTP ${error.status})`;
  } else if (isLocalError(error)) {
    // Refused by the client before any request: the server's code for the same mistake, no HTTP status.
    code = error.code;
    details = error.details;
    extra.push(...describeDetails(details));
  } else if (isNetworkError(error) || isTimeoutError(error)) {
    exitCode = EXIT.server;
    code = isNetworkError(error) ? 'NETWORK_ERROR' : 'TIMEOUT';
    extra.push('  is the server running? Start one with `skillport serve`, or set --url / SKILLPORT_URL.');
  } else if (error instanceof CliError) {
    exitCode = error.exitCode;
    code = exitCode === EXIT.server ? 'SERVER_ERROR' : 'USER_ERROR';
  }
  if (format === 'json') {
    io.stderr.write(
      `${JSON.stringify({ status: 'error', error: { code, message, ...(details ? { details } : {}) }, exit_code: exitCode })}\n`,
    );
  } else {
    // The message may quote input too; its line breaks are kept (a message may have several lines),
    // tabs and every other control character are shown as escapes.
    const shown = escapeTerminalControls(message).replaceAll('\t', '\\u0009');
    io.stderr.write(`error: ${shown}\n${extra.length ? `${extra.join('\n')}\n` : ''}`);
  }
  return exitCode;
}
