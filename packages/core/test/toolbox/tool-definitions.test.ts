import { describe, expect, it } from 'vitest';
import {
  createSkillToolbox,
  type McpToolDefinition,
  type OpenAIFunctionTool,
  SKILL_TOOL_PARAMETERS,
  type SkillToolParameters,
} from '../../src/index.js';

// The tool types of the agent SDKs, as they declare them: each types a JSON Schema as an object with
// an index signature, which an interface does not satisfy (TS2322 "Index signature … is missing").
/** `openai`: `FunctionParameters`, the `parameters` of a `ChatCompletionFunctionTool`. */
type OpenAIFunctionParameters = { [key: string]: unknown };
/** `openai`: `ChatCompletionFunctionTool`. */
type OpenAIChatCompletionFunctionTool = {
  type: 'function';
  function: {
    name: string;
    description?: string;
    parameters?: OpenAIFunctionParameters;
    strict?: boolean | null;
  };
};
/** `@anthropic-ai/sdk`: `Tool.InputSchema`. */
type AnthropicInputSchema = {
  type: 'object';
  properties?: unknown | null;
  required?: Array<string> | null;
  [k: string]: unknown;
};
/** `@modelcontextprotocol/sdk`: `Tool` (the fields a toolbox sets). */
type McpSdkTool = {
  name: string;
  description?: string;
  inputSchema: {
    [x: string]: unknown;
    type: 'object';
    properties?: { [x: string]: object };
    required?: string[];
  };
};

describe('toolbox tool definitions fit the agent SDKs', () => {
  const toolbox = createSkillToolbox([{ name: 'pdf', description: 'Read PDFs', body: '# PDF' }]);

  it('type-checks as the SDKs tool types, without a cast', () => {
    const openai: OpenAIChatCompletionFunctionTool[] = toolbox.toOpenAITools();
    const mcp: McpSdkTool[] = toolbox.toMcpTools();
    const anthropic = toolbox.tools.map(
      (tool): { name: string; description: string; input_schema: AnthropicInputSchema } => ({
        name: tool.name,
        description: tool.description,
        input_schema: tool.parameters,
      }),
    );
    const shared: OpenAIFunctionParameters = SKILL_TOOL_PARAMETERS;
    const shapes: [OpenAIFunctionTool, McpToolDefinition, SkillToolParameters] = [
      toolbox.toOpenAITools()[0]!,
      toolbox.toMcpTools()[0]!,
      toolbox.tools[0]!.parameters,
    ];
    expect(openai[0]?.function.parameters).toEqual(SKILL_TOOL_PARAMETERS);
    expect(mcp[0]?.inputSchema).toEqual(SKILL_TOOL_PARAMETERS);
    expect(anthropic[0]?.input_schema).toEqual(SKILL_TOOL_PARAMETERS);
    expect(shared).toBe(SKILL_TOOL_PARAMETERS);
    expect(shapes[2]).toEqual(SKILL_TOOL_PARAMETERS);
  });
});
