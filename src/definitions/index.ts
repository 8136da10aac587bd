/** Public surface of agent definitions: parse, schema, write-back and the registry. */
export type {
  AgentDefinition,
  HookCommand,
  InlineMcpServer,
  LoadedDefinition,
} from './definition.js';
export { DEFINITION_DEFAULTS } from './definition.js';
export { DefinitionError, DEFINITION_ERROR_STATUS } from './errors.js';
export type { DefinitionErrorKind } from './errors.js';
export { LEVEL_PRECEDENCE, WRITABLE_LEVELS } from './levels.js';
export type { WritableLevel } from './levels.js';
export { NAME_PATTERN, isValidName } from './names.js';
export { MAX_DEFINITION_BYTES, parseDefinition } from './parse.js';
export type { ParseOptions, ParseResult } from './parse.js';
export { INVALID_TOOLS_SPEC } from './read-fields.js';
export { createRegistry } from './registry.js';
export type { DefinitionRegistry, RegistryOptions } from './registry.js';
export type { RevisionInfo } from './revisions.js';
export {
  AgentFrontmatterChangesSchema,
  AgentFrontmatterSchema,
  MAX_SKILLS,
  frontmatterChangesJsonSchema,
  frontmatterJsonSchema,
  validateChanges,
  validateForSave,
} from './schema.js';
export type {
  AgentFrontmatter,
  AgentFrontmatterChanges,
  ValidationIssue,
  ValidationResult,
} from './schema.js';
export { applyChanges, serializeNewDefinition } from './write-back.js';
