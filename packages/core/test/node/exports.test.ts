import { describe, expect, it } from 'vitest';
import * as core from '../../src/index.js';
import * as node from '../../src/node/index.js';

// Pins the public surface owned by the Node subpath and the toolbox: a change here is deliberate.
describe('public exports', () => {
  it('@skillport/core/node exports exactly these values', () => {
    expect(Object.keys(node).sort()).toEqual([
      'COMPRESSION_RATIO_FLOOR_BYTES',
      'DEFAULT_SKILL_DIR_LIMITS',
      'DEFAULT_UPLOAD_LIMITS',
      'DISCOVERY_DEFAULTS',
      'checkSkillZip',
      'createDiscoveryCache',
      'discoverSkills',
      'loadSkillDir',
      'makeFolderSync',
      'scanSkillTree',
      'zipSkillDir',
    ]);
  });

  it('@skillport/core exports the toolbox values', () => {
    const toolbox = [
      'ChatModelError',
      'SKILL_TOOL_PARAMETERS',
      'createOpenAICompatibleModel',
      'createSkillToolbox',
      'escapeXml',
      'renderAvailableSkills',
      'toolboxSkillsFromRegistry',
    ];
    for (const name of toolbox) expect(Object.keys(core)).toContain(name);
  });
});
