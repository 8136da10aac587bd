/**
 * Agents for the session suites: a scripted main agent `lead` that hands work to a
 * `reader` (foreground) and a `writer` whose write opens a card (`confirm`). Each suite picks
 * the lead script it needs; every model here is scripted.
 */
export const readerAgent = {
  '.subagents/agents/reader.md':
    '---\nname: reader\ndescription: Reads one file and says what it holds\nmodel: scripted:scripts/reader.yaml\ntools: [read]\n---\nRead.\n',
  'scripts/reader.yaml': `turns:
  - text: Reading.
    toolCalls: [{ name: read, arguments: { path: README.md } }]
  - text: "README holds: \${lastToolResult}"
`,
  'README.md': 'deputy test workspace\n',
};

export const writerAgent = {
  '.subagents/agents/writer.md':
    '---\nname: writer\ndescription: Writes out.txt (asks first)\nmodel: scripted:scripts/writer.yaml\ntools: [write]\napprovalMode: confirm\n---\nWrite.\n',
  'scripts/writer.yaml': `turns:
  - text: Writing out.txt.
    toolCalls: [{ name: write, arguments: { path: out.txt, content: "written by writer\\n" } }]
  - text: Wrote out.txt.
`,
};

/** A main agent whose scripted turns are `turns` (YAML list items, indented by two). */
export function leadAgent(turns: string, maxTurns = 20): Record<string, string> {
  return {
    '.subagents/agents/lead.md': `---\nname: lead\ndescription: Hands work to the others\nmodel: scripted:scripts/lead.yaml\ntools: [read, Task]\nmaxTurns: ${maxTurns}\n---\nLead.\n`,
    'scripts/lead.yaml': `turns:\n${turns}`,
  };
}

/** Foreground reader, background writer (its card), then TaskOutput waits for the writer. */
export const FOREGROUND_THEN_BACKGROUND = `  - text: Asking the reader.
    toolCalls: [{ name: Task, arguments: { description: read README, prompt: Read README.md, subagent_type: reader } }]
  - text: Starting the writer.
    toolCalls: [{ name: Task, arguments: { description: write out, prompt: Write out.txt, subagent_type: writer, run_in_background: true } }]
  - text: Waiting for the writer.
    toolCalls: [{ name: TaskOutput, arguments: { task_id: "\${lastTaskId}", timeout: 600000 } }]
  - text: "Done. \${lastToolResult}"
`;
