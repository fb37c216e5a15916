/**
 * The wire shapes a toolbox exports: the JSON Schema of a skill tool's arguments, MCP tool
 * definitions and OpenAI function-calling tools.
 */

/**
 * JSON Schema of a skill tool's arguments: `{task: string, context?: string}`, nothing else.
 *
 * The wire shapes here are type aliases, not interfaces, so they fit the SDKs' own tool types
 * (`openai`'s `ChatCompletionTool`, `@anthropic-ai/sdk`'s `Tool.input_schema`, the MCP SDK's `Tool`),
 * which type a schema as an object with an index signature.
 */
export type SkillToolParameters = {
  type: 'object';
  properties: {
    task: { type: 'string'; description: string; minLength: 1 };
    context: { type: 'string'; description: string };
  };
  required: ['task'];
  additionalProperties: false;
};

/**
 * The arguments schema every skill tool shares (frozen; toolbox exports hand out copies).
 *
 * @example
 * ```ts
 * SKILL_TOOL_PARAMETERS.required; // ['task']
 * ```
 */
export const SKILL_TOOL_PARAMETERS: Readonly<SkillToolParameters> = Object.freeze<SkillToolParameters>({
  type: 'object',
  properties: {
    task: {
      type: 'string',
      description:
        'What to do, stated fully: the request in plain language with every detail the skill needs.',
      minLength: 1,
    },
    context: {
      type: 'string',
      description: 'Optional background for the task: relevant facts, earlier results, constraints.',
    },
  },
  required: ['task'],
  additionalProperties: false,
});

/** An MCP tool definition (`tools/list` item). */
export type McpToolDefinition = {
  name: string;
  description: string;
  inputSchema: SkillToolParameters;
};

/** An OpenAI chat-completions function tool. */
export type OpenAIFunctionTool = {
  type: 'function';
  function: { name: string; description: string; parameters: SkillToolParameters };
};
