/**
 * Wire schemas of the reading skill routes: list, find, get, validate
 * (API-CONTRACT §List, §Find, §Get, §Validate).
 */
import { z } from 'zod';
import { looseOptional, TelemetryRequestSchema } from './envelope.js';
import { SkillDataSchema, SkillIssueSchema } from './skill-write.js';

/** A query flag: `true`/`false`/`1`/`0` (absent = the route's default). */
export const QueryFlagSchema = z
  .enum(['true', 'false', '1', '0', 'True', 'False'])
  .transform((v) => v === 'true' || v === '1' || v === 'True');

/** One skill of list and find. */
export const SkillListItemSchema = z
  .object({
    type: z.literal('skill'),
    name: z.string(),
    uri: z.string(),
    root_uri: z.string(),
    skill_md_uri: z.string(),
    description: z.string(),
    tags: z.array(z.string()),
    allowed_tools: z.array(z.string()),
    level: z.number().int(),
    revision: z.string(),
    updated_at: z.string().meta({ description: 'ISO 8601' }),
  })
  .meta({ id: 'SkillListItem' });

/** Query of `GET /api/v1/skills`; unknown parameters are ignored. */
export const ListSkillsQuerySchema = z.object({
  node_limit: z.string().regex(/^\d+$/, 'expected a non-negative integer').optional(),
  target_uri: z.string().optional(),
});

/** Result of list: `root_uris` without `target_uri`, `root_uri` with it. */
export const ListSkillsResultSchema = z
  .object({
    root_uris: z.array(z.string()).optional(),
    root_uri: z.string().optional(),
    skills: z.array(SkillListItemSchema),
    total: z.number().int(),
  })
  .meta({ id: 'ListSkillsResult' });

/** Body of `POST /api/v1/skills/find`. */
export const FindSkillsRequestSchema = z
  .strictObject({
    query: z.string().trim().min(1, 'query must not be empty'),
    limit: looseOptional(z.number().int().min(1).max(1000)).meta({ description: 'Default 10' }),
    score_threshold: looseOptional(z.number().min(0).max(1)),
    target_uri: looseOptional(z.string()),
    level: looseOptional(z.union([z.number().int().min(0).max(2), z.array(z.number().int().min(0).max(2))])),
    telemetry: TelemetryRequestSchema,
  })
  .meta({ id: 'FindSkillsRequest' });

/** One hit of find. */
export const FindSkillItemSchema = SkillListItemSchema.extend({
  score: z.number().min(0).max(1),
  match_reason: z.string(),
}).meta({ id: 'FindSkillItem' });

/** Result of find. */
export const FindSkillsResultSchema = z
  .object({
    query: z.string(),
    root_uris: z.array(z.string()),
    skills: z.array(FindSkillItemSchema),
    total: z.number().int(),
  })
  .meta({ id: 'FindSkillsResult' });

/** Query of `GET /api/v1/skills/{name}`; unknown parameters are ignored. */
export const GetSkillQuerySchema = z.object({
  level: z.enum(['0', '1', '2', 'null', '']).optional(),
  include_content: QueryFlagSchema.optional(),
  include_files: QueryFlagSchema.optional(),
  include_integrity: QueryFlagSchema.optional(),
  include_source: QueryFlagSchema.optional(),
  target_uri: z.string().optional(),
});

/** One file of a skill folder. */
export const SkillFileSchema = z
  .object({
    name: z.string(),
    uri: z.string(),
    path: z.string(),
    is_dir: z.boolean(),
    kind: z.enum(['definition', 'summary', 'auxiliary', 'directory']),
    size: z.number().int(),
    sha256: z.string().nullable(),
  })
  .meta({ id: 'SkillFile' });

/** Result of get. */
export const GetSkillResultSchema = z
  .object({
    name: z.string(),
    uri: z.string(),
    root_uri: z.string(),
    skill_md_uri: z.string(),
    description: z.string(),
    tags: z.array(z.string()),
    allowed_tools: z.array(z.string()),
    frontmatter: z.record(z.string(), z.unknown()),
    revision: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
    level: z.number().int().optional(),
    abstract: z.string().optional(),
    overview: z.string().optional(),
    content: z.string().optional(),
    content_sha256: z.string().optional(),
    files: z.array(SkillFileSchema).optional(),
    source: z.record(z.string(), z.unknown()).nullable().optional(),
  })
  .meta({ id: 'GetSkillResult' });

/** Body of `POST /api/v1/skills/validate`. */
export const ValidateSkillRequestSchema = z
  .strictObject({
    data: SkillDataSchema,
    strict: looseOptional(z.boolean()),
    profile: looseOptional(z.enum(['openviking', 'agentskills', 'claude'])),
    skill_dir_name: looseOptional(z.string()),
    source_path: looseOptional(z.string()),
    target_uri: looseOptional(z.string()).meta({ description: 'Accepted and ignored' }),
    telemetry: TelemetryRequestSchema,
  })
  .meta({ id: 'ValidateSkillRequest' });

/** Result of validate. */
export const ValidateSkillResultSchema = z
  .object({
    valid: z.boolean(),
    strict: z.boolean(),
    profile: z.enum(['openviking', 'agentskills', 'claude']),
    name: z.string().nullable(),
    description: z.string().nullable(),
    tags: z.array(z.string()),
    allowed_tools: z.array(z.string()),
    body_lines: z.number().int(),
    errors: z.array(SkillIssueSchema),
    warnings: z.array(SkillIssueSchema),
  })
  .meta({ id: 'ValidateSkillResult' });

export type SkillListItem = z.infer<typeof SkillListItemSchema>;
export type ListSkillsResult = z.infer<typeof ListSkillsResultSchema>;
export type FindSkillsRequest = z.infer<typeof FindSkillsRequestSchema>;
export type FindSkillItem = z.infer<typeof FindSkillItemSchema>;
export type FindSkillsResult = z.infer<typeof FindSkillsResultSchema>;
export type SkillFile = z.infer<typeof SkillFileSchema>;
export type GetSkillResult = z.infer<typeof GetSkillResultSchema>;
export type ValidateSkillRequest = z.infer<typeof ValidateSkillRequestSchema>;
export type ValidateSkillResult = z.infer<typeof ValidateSkillResultSchema>;
