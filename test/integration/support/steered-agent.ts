/** A scripted agent for steering and revival tests. */

/** Asks before its one bash call (default approval mode), then echoes what it was told last. */
export const steeredAgent = {
  '.subagents/agents/steered.md':
    '---\nname: steered\ndescription: one bash call, then says what it heard\nmodel: scripted:scripts/steered.yaml\ntools: [bash]\n---\nWork.\n',
  'scripts/steered.yaml': `turns:
  - text: Step one.
    toolCalls: [{ name: bash, arguments: { command: "echo one >> steered.log" } }]
  - text: "Heard: \${lastUserMessage}"
  - text: "Again: \${lastUserMessage}"
`,
};

/** Answers at once, then its Stop hook marks that it runs and takes a few seconds. */
export const slowStopAgent = {
  '.subagents/agents/slow-stop.md':
    "---\nname: slow-stop\ndescription: answers, then a slow Stop hook\nmodel: scripted:scripts/slow-stop.yaml\ntools: [read]\nhooks:\n  Stop:\n    - command: 'cat > /dev/null; touch stopping.flag; sleep 4'\n---\nWork.\n",
  'scripts/slow-stop.yaml': 'turns:\n  - text: Done.\n',
};
