/**
 * Agents for the richer decisions (issue 30). `echo` asks to write note.txt (`confirm`: a card)
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
