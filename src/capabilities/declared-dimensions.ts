/**
 * The declared dimensions a definition's tools depend on (knowledge, skills, memory), each
 * resolved to what the snapshot records, with a diagnostic for every entry left out. The MCP
 * servers, which also have a live side, are in mcp-servers.ts.
 */
import { join } from 'node:path';
import type {
  KnowledgeSourceRef,
  MemoryMode,
  MemoryRef,
  SkillRef,
} from '../shared/capability-snapshot.js';
import type { Diagnostic } from '../shared/diagnostics.js';
import { MAX_SKILLS } from '../definitions/schema.js';
import { knowledgeGlobProblem } from '../shared/knowledge-glob.js';
import type { SkillIndex } from './skill-discovery.js';

/** An agent's memory directory: private per agent, or the main agent's shared one. */
export function memoryDirectory(
  dataDir: string,
  agentName: string,
  mode: MemoryMode,
): string | null {
  if (mode === 'none') return null;
  return mode === 'private'
    ? join(dataDir, 'memory', 'agents', agentName)
    : join(dataDir, 'memory', 'main');
}

/** Agent names (definitions/names.ts); checked again here because the name becomes a directory. */
const AGENT_NAME = /^[a-z0-9][a-z0-9-]*$/;

/** Where the agent's memory lives, or nothing (said) when its name cannot be a directory. */
export function resolveMemory(
  dataDir: string,
  agentName: string,
  mode: MemoryMode,
  diagnostics: Diagnostic[],
): MemoryRef | null {
  if (mode === 'none') return null;
  if (mode === 'private' && !AGENT_NAME.test(agentName)) {
    diagnostics.push({
      severity: 'error',
      path: 'memory',
      code: 'memory.invalid-agent-name',
      message: `private memory needs an agent name matching ${AGENT_NAME.source} (it names a directory); '${agentName}' does not, so memory is not mounted`,
    });
    return null;
  }
  const directory = memoryDirectory(dataDir, agentName, mode);
  return directory === null ? null : { mode, directory };
}

/** Knowledge sources whose glob stays in the workspace, each name once. */
export function resolveKnowledge(
  sources: KnowledgeSourceRef[],
  diagnostics: Diagnostic[],
): KnowledgeSourceRef[] {
  const result: KnowledgeSourceRef[] = [];
  const seen = new Set<string>();
  sources.forEach((source, index) => {
    const problem = knowledgeGlobProblem(source.glob);
    if (problem !== null) {
      diagnostics.push({
        severity: 'error',
        path: `knowledge[${index}].glob`,
        code: 'knowledge.glob-escapes',
        message: `knowledge source '${source.name}': glob ${JSON.stringify(source.glob)} is refused because ${problem}; the source is dropped`,
      });
      return;
    }
    const key = source.name.toLowerCase();
    if (seen.has(key)) {
      diagnostics.push({
        severity: 'warning',
        path: `knowledge[${index}].name`,
        code: 'knowledge.duplicate-name',
        message: `knowledge source name '${source.name}' is declared twice; the later one is dropped`,
      });
      return;
    }
    seen.add(key);
    result.push({ name: source.name, glob: source.glob });
  });
  return result;
}

/** The declared skills found in discovery's index, at most MAX_SKILLS. */
export function resolveSkills(
  declared: string[],
  index: SkillIndex,
  problems: Diagnostic[],
  diagnostics: Diagnostic[],
): SkillRef[] {
  const byLowerName = new Map(
    [...index.values()].map((skill) => [skill.name.toLowerCase(), skill]),
  );
  if (declared.length > MAX_SKILLS) {
    diagnostics.push({
      severity: 'error',
      path: 'skills',
      code: 'skill.too-many',
      message: `${declared.length} skills are declared but at most ${MAX_SKILLS} are allowed; not loaded: ${declared.slice(MAX_SKILLS).join(', ')}`,
    });
  }
  const result: SkillRef[] = [];
  declared.slice(0, MAX_SKILLS).forEach((name, index) => {
    const skill = byLowerName.get(name.toLowerCase());
    if (skill === undefined) {
      diagnostics.push({
        severity: 'warning',
        path: `skills[${index}]`,
        code: 'skill.not-found',
        message: `skill '${name}' was not found in any skill layer (workspace .subagents/skills, .claude/skills, .agents/skills, the runtime's skills/, ~/.claude/skills, plugin dirs): it is not in the catalog and use_skill cannot load it${skippedFolder(name, problems)}`,
      });
      return;
    }
    if (result.some((ref) => ref.name === skill.name)) return;
    result.push({ name: skill.name, description: skill.description, location: skill.location });
  });
  return result;
}

/** Discovery skipped a folder named like the missing skill: say why, it is the likely cause. */
function skippedFolder(name: string, problems: Diagnostic[]): string {
  const suffix = `/${name.toLowerCase()}/skill.md`;
  const problem = problems.find(
    (entry) => entry.code === 'skill.invalid' && entry.path.toLowerCase().endsWith(suffix),
  );
  return problem === undefined ? '' : `. Note: ${problem.message}`;
}
