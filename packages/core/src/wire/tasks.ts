/**
 * Wire schemas of the task list, task cancellation and the system observer: `GET /api/v1/tasks`,
 * `POST /api/v1/tasks/{task_id}/cancel` and `GET /api/v1/observer/system`, the routes the seed
 * project's clients call for `list_tasks`, `cancel_task` and `get_status` / `is_healthy`.
 */
import { z } from 'zod';
import { TaskResultSchema } from './system.js';

/** Query of `GET /api/v1/tasks`; unknown parameters are ignored. */
export const TaskListQuerySchema = z.object({
  task_type: z.string().optional().meta({
    description: 'Only tasks of this type: `add_skill` or `update_skill` (any other value matches none)',
    example: 'add_skill',
  }),
  status: z.string().optional().meta({
    description:
      'Only tasks in this state: `pending`, `running`, `completed`, `failed` or `cancelled` (any other value matches none)',
    example: 'failed',
  }),
  resource_id: z.string().optional().meta({
    description: 'Only tasks of this skill, by URI (`viking://…/skills/<name>`)',
    example: 'viking://user/alice/skills/search-web',
  }),
  limit: z
    .string()
    .regex(/^\d+$/, 'expected an integer from 1 to 200')
    .optional()
    .meta({ description: 'Most tasks returned, 1–200 (default 50)', example: '50' }),
  include_internal: z.string().optional().meta({
    description: 'Accepted for seed clients and ignored: Skillport has no internal tasks',
  }),
});

/** Result of `GET /api/v1/tasks`: a bare list, as the seed clients read it. */
export const TaskListResultSchema = z.array(TaskResultSchema).meta({
  id: 'TaskListResult',
  description: "The caller's processing tasks, newest first (by `created_at`), at most `limit`",
});

/** One component of `GET /api/v1/observer/system`. */
export const ComponentStatusSchema = z
  .object({
    name: z.string().meta({ description: 'Component name (the key it is listed under)', example: 'queue' }),
    is_healthy: z.boolean().meta({ description: 'Whether the component works' }),
    has_errors: z.boolean().meta({
      description:
        'Whether it reports errors (for `queue`: some of the caller’s tasks failed); not unhealthy by itself',
    }),
    status: z.string().meta({
      description: 'One line a person can read',
      example: '0 pending, 0 processing, 12 completed, 0 failed',
    }),
  })
  .meta({ id: 'ComponentStatus', description: 'State of one server component' });

/** Result of `GET /api/v1/observer/system`. */
export const SystemStatusSchema = z
  .object({
    is_healthy: z.boolean().meta({ description: 'True when every component is healthy' }),
    errors: z.array(z.string()).meta({
      description: 'One message per unhealthy component (empty when healthy)',
      example: [],
    }),
    components: z.record(z.string(), ComponentStatusSchema).meta({
      description:
        '`store` (the database answers), `queue` (the caller’s processing jobs) and `jobs` (this server runs ' +
        'processing jobs)',
    }),
  })
  .meta({
    id: 'SystemStatus',
    description:
      'Overall state of the server as seen by the caller (`is_healthy` is what `is_healthy()` of the seed clients reads)',
  });

export type TaskListQuery = z.infer<typeof TaskListQuerySchema>;
export type TaskListResult = z.infer<typeof TaskListResultSchema>;
export type ComponentStatus = z.infer<typeof ComponentStatusSchema>;
export type SystemStatus = z.infer<typeof SystemStatusSchema>;
