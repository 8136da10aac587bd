/**
 * Agents for the richer decisions. `echo` asks to write note.txt (`confirm`: a card)
 * and answers with the result it got, so a test reads what the model was told.
 */
export const echoAgent = {
  '.subagents/agents/echo.md':
    '---\nname: echo\ndescription: writes a note and says what happened\nmodel: scripted:scripts/echo.yaml\ntools: [write]\napprovalMode: confirm\n---\nWrite.\n',
  'scripts/echo.yaml': `turns:
  - text: Writing the note.
    toolCalls: [{ name: write, arguments: { path: note.txt, content: "noted\\n" } }]
  - text: "Result: \${lastToolResult}"
`,
};

/**
 * `repeat` writes note.txt, note.txt again, other.txt, then note.txt a third time (`confirm`):
 * what a grant for note.txt covers, what it does not, and what a revocation changes.
 */
export const repeatAgent = {
  '.subagents/agents/repeat.md':
    '---\nname: repeat\ndescription: writes a note again and again\nmodel: scripted:scripts/repeat.yaml\ntools: [write]\napprovalMode: confirm\n---\nWrite.\n',
  'scripts/repeat.yaml': `turns:
  - text: First.
    toolCalls: [{ name: write, arguments: { path: note.txt, content: "one\\n" } }]
  - text: Second.
    toolCalls: [{ name: write, arguments: { path: note.txt, content: "two\\n" } }]
  - text: Elsewhere.
    toolCalls: [{ name: write, arguments: { path: other.txt, content: "other\\n" } }]
  - text: Third.
    toolCalls: [{ name: write, arguments: { path: note.txt, content: "three\\n" } }]
  - text: Done.
`,
};

/** `lister` asks to run `ls -a` (`confirm`: bash asks) and answers with what it got. */
export const listerAgent = {
  '.subagents/agents/lister.md':
    '---\nname: lister\ndescription: lists the workspace\nmodel: scripted:scripts/lister.yaml\ntools: [bash]\napprovalMode: confirm\n---\nList.\n',
  'scripts/lister.yaml': `turns:
  - text: Listing.
    toolCalls: [{ name: bash, arguments: { command: "ls -a" } }]
  - text: "Result: \${lastToolResult}"
`,
};
