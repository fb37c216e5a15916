/**
 * Checks the arguments of a skill tool call: an object (or its JSON text, as function-calling APIs
 * send it) with a non-blank string `task`, an optional string `context`, and nothing else.
 */
import { SkillportError } from '../../errors.js';

/** Arguments of a skill tool, checked. */
export interface ToolArguments {
  task: string;
  context?: string;
}

function shown(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

function invalid(tool: string, field: string | null, message: string): SkillportError {
  return new SkillportError('INVALID_ARGUMENT', `Invalid arguments for tool "${tool}": ${message}`, {
    details: { tool, field },
  });
}

/**
 * @throws SkillportError `INVALID_ARGUMENT` with `details.field` naming the offending argument
 */
export function parseToolArguments(tool: string, args: unknown): ToolArguments {
  let value = args;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      throw invalid(
        tool,
        null,
        `arguments text is not JSON; expected e.g. {"task": "Summarise the report"}, got ${shown(args)}`,
      );
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalid(tool, null, `expected an object like {"task": "Summarise the report"}, got ${shown(args)}`);
  }
  const record = value as Record<string, unknown>;
  const unknownKeys = Object.keys(record).filter((key) => key !== 'task' && key !== 'context');
  if (unknownKeys.length > 0) {
    throw invalid(
      tool,
      unknownKeys[0] ?? null,
      `unknown argument(s) ${unknownKeys.map((k) => `"${k}"`).join(', ')}; only "task" and "context" are accepted`,
    );
  }
  const { task, context } = record;
  if (typeof task !== 'string' || task.trim() === '') {
    throw invalid(tool, 'task', `"task" must be a non-empty string, got ${shown(task)}`);
  }
  if (context === undefined || context === null) return { task };
  if (typeof context !== 'string') {
    throw invalid(tool, 'context', `"context" must be a string when given, got ${shown(context)}`);
  }
  return { task, context };
}
