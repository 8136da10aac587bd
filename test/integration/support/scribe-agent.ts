/**
 * An agent that parks on a card at once: its scripted model asks to write note.txt and `confirm`
 * asks a human; once the write is settled it answers "Wrote note.txt.".
 */
export const scribeAgent = {
  '.subagents/agents/scribe.md':
    '---\nname: scribe\ndescription: writes a note\nmodel: scripted:scripts/scribe.yaml\ntools: [write]\napprovalMode: confirm\n---\nWrite.\n',
  'scripts/scribe.yaml': `turns:
  - text: Writing the note.
    toolCalls: [{ name: write, arguments: { path: note.txt, content: "noted\\n" } }]
  - text: Wrote note.txt.
`,
};
