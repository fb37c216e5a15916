/**
 * Wire schemas of the writing skill routes: add, update, delete (API-CONTRACT §Add, §Update, §Delete).
 */
import { z } from 'zod';
import { looseOptional, TelemetryRequestSchema } from './envelope.js';

/** One validation issue as sent on the wire. @see API-CONTRACT §Validate */
export const SkillIssueSchema = z
  .object({
    rule: z.string(),
    severity: z.enum(['error', 'warning']).optional(),
    message: z.string(),
    field: z.string().nullable(),
    line: z.number().int().optional(),
    column: z.number().int().optional(),
    fix: z.string().optional(),
  })
  .meta({ id: 'SkillIssue' });

/** Counts of the caller's processing jobs. */
export const QueueStatusSchema = z
  .object({
    pending: z.number().int(),
    processing: z.number().int(),
    completed: z.number().int(),
    failed: z.number().int(),
  })
  .meta({ id: 'QueueStatus' });

/** `data` of add/update/validate: SKILL.md text, an MCP tool (has `inputSchema`) or a structured skill. */
export const SkillDataSchema = z.union([z.string(), z.record(z.string(), z.unknown())]).meta({
  id: 'SkillData',
  description:
    'SKILL.md text; or an MCP tool object (has `inputSchema`); or a structured skill ' +
    '`{name, description?, content?, tags?, allowed_tools?, …}` (extra keys become frontmatter)',
});

/** Body of `POST /api/v1/skills` and `PUT /api/v1/skills/{name}`: `data` XOR `temp_file_id`. */
export const AddSkillRequestSchema = z
  .strictObject({
    data: SkillDataSchema.optional(),
    temp_file_id: looseOptional(z.string()).meta({ description: 'Id from temp_upload (zip or SKILL.md)' }),
    wait: looseOptional(z.boolean()).meta({ description: 'Wait for processing (default false)' }),
    timeout: looseOptional(z.number().nonnegative()).meta({
      description: 'Seconds to wait, only with `wait` (0 or absent: the server limit)',
    }),
    target_uri: looseOptional(z.string()).meta({
      description: 'Skill root: the user root (default), `viking://~/skills` or `viking://agent/skills`',
    }),
    source_metadata: looseOptional(z.record(z.string(), z.unknown())),
    telemetry: TelemetryRequestSchema,
  })
  .meta({ id: 'AddSkillRequest' });

/** Result of add and update. */
export const SkillWriteResultSchema = z
  .object({
    status: z.literal('success'),
    root_uri: z.string(),
    uri: z.string(),
    name: z.string(),
    auxiliary_files: z.number().int(),
    revision: z.string(),
    warnings: z.array(SkillIssueSchema),
    action: z.enum(['add', 'update']).optional(),
    task_id: z.string().optional(),
    queue_status: QueueStatusSchema.optional(),
  })
  .meta({ id: 'SkillWriteResult' });

/** Query of `DELETE /api/v1/skills/{name}`. */
export const DeleteSkillQuerySchema = z.object({
  target_uri: z.string().optional(),
});

/** Result of delete. */
export const DeleteSkillResultSchema = z
  .object({
    name: z.string(),
    uri: z.string(),
    root_uri: z.string(),
    estimated_deleted_count: z.number().int(),
    privacy_deleted: z.boolean(),
  })
  .meta({ id: 'DeleteSkillResult' });

export type SkillIssueWire = z.infer<typeof SkillIssueSchema>;
export type QueueStatus = z.infer<typeof QueueStatusSchema>;
export type AddSkillRequest = z.infer<typeof AddSkillRequestSchema>;
export type SkillWriteResult = z.infer<typeof SkillWriteResultSchema>;
export type DeleteSkillResult = z.infer<typeof DeleteSkillResultSchema>;
