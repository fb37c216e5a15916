/**
 * Wire schemas of temp upload, tasks, waiting, the queue observer and health
 * (API-CONTRACT §Temp upload, §Tasks, waiting, health).
 */
import { z } from 'zod';
import { looseOptional, TelemetryRequestSchema } from './envelope.js';

/** Multipart form of `POST /api/v1/resources/temp_upload`. */
export const TempUploadFormSchema = z
  .object({
    file: z
      .any()
      .meta({ type: 'string', format: 'binary', description: 'A zipped skill folder or one SKILL.md' }),
    upload_mode: z.enum(['local', 'shared']).optional().meta({ description: 'Default `local`' }),
  })
  .meta({ id: 'TempUploadForm' });

/** Result of temp upload. */
export const TempUploadResultSchema = z.object({ temp_file_id: z.string() }).meta({ id: 'TempUploadResult' });

/** Result of `GET /api/v1/tasks/{task_id}`. */
export const TaskResultSchema = z
  .object({
    task_id: z.string(),
    task_type: z.enum(['add_skill', 'update_skill']),
    status: z.enum(['pending', 'running', 'completed', 'failed']),
    created_at: z.string(),
    updated_at: z.string(),
    result: z.record(z.string(), z.unknown()).optional(),
    error: z.string().optional(),
  })
  .meta({ id: 'TaskResult' });

/** Body of `POST /api/v1/system/wait`. */
export const WaitRequestSchema = z
  .strictObject({
    timeout: looseOptional(z.number().nonnegative()).meta({
      description: 'Seconds (0 or absent: the server limit)',
    }),
    telemetry: TelemetryRequestSchema,
  })
  .meta({ id: 'WaitRequest' });

/** `GET /health` (not enveloped). */
export const HealthResultSchema = z
  .object({
    status: z.literal('ok'),
    healthy: z.boolean(),
    version: z.string(),
    auth_mode: z.enum(['dev', 'api_key']),
    account_id: z.string().optional(),
    user_id: z.string().optional(),
    role: z.enum(['root', 'admin', 'user']).optional(),
  })
  .meta({ id: 'HealthResult' });

export type TempUploadResult = z.infer<typeof TempUploadResultSchema>;
export type TaskResult = z.infer<typeof TaskResultSchema>;
export type WaitRequest = z.infer<typeof WaitRequestSchema>;
export type HealthResult = z.infer<typeof HealthResultSchema>;
