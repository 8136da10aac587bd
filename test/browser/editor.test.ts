/**
 * The agent create and edit page in a real Chromium against a real `deputy dev`: the YAML tab
 * and the warning chip of a name that resolves to nothing, the cascading tool picker, a 422 on
 * its field, the directory picker and the knowledge-without-read flag, secrets that survive an
 * edit without reaching the page, and the generation dialog on the scripted default model.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { everythingStdioCommand } from '../fixtures/mcp/start.js';
import { eventually } from '../support/eventually.js';
import {
  CHROMIUM,
  openPage,
  screenshot,
  seriousViolations,
  useConsole,
  type RunningConsole,
} from './support/console.js';

const SECRET = 'sk-live-7Qm2-never-on-the-page';
const everything = everythingStdioCommand();

const FILES: Record<string, string> = {
  '.subagents/config.yaml': [
    'models:',
    '  default: scripted:scripts/drafts.yaml',
    'mcpServers:',
    '  tracker:',
    '    transport: stdio',
    '    command: node',
    '    args: [tracker-server.js]',
    '    enabled: false',
    '  everything:',
    '    transport: stdio',
    `    command: ${JSON.stringify(everything.command)}`,
    `    args: ${JSON.stringify(everything.args)}`,
    '',
  ].join('\n'),
  'scripts/drafts.yaml': ['turns:', "  - text: '[scripted model] draft for: ${task}'", ''].join(
    '\n',
  ),
  'docs/guides/intro.md': '# Intro\n',
  'docs/faq.md': '# FAQ\n',
  '.subagents/agents/yaml-edit.md': [
    '---',
    'name: yaml-edit',
    'description: Before the edit',
    'tools: [read, glob]',
    'maxTurns: 7',
    '---',
    'You are edited as YAML.',
    '',
  ].join('\n'),
  '.subagents/agents/keeper.md': [
    '---',
    'name: keeper',
    'description: Keeps a secret in its inline server',
    'tools: [read]',
    'mcpServers:',
    '  - name: vault',
    '    transport: stdio',
    '    command: node',
    '    args: [vault-server.js]',
    '    env:',
    `      VAULT_TOKEN: ${SECRET}`,
    '---',
    'You keep a secret.',
    '',
  ].join('\n'),
};

/** The frontmatter and body of an agent file on disk. */
function readAgent(
  dev: RunningConsole,
  name: string,
): { frontmatter: Record<string, unknown>; body: string } {
  const text = readFileSync(join(dev.workspace, '.subagents', 'agents', `${name}.md`), 'utf8');
  const match = /^---\n([\s\S]*?)---\n([\s\S]*)$/.exec(text);
  if (match === null) throw new Error(`no frontmatter in ${name}.md:\n${text}`);
  return { frontmatter: parseYaml(match[1]!) as Record<string, unknown>, body: match[2]! };
}

/** What the browser logs for a refusal the test asked for is not a page problem. */
const expectedRefusals = (problems: string[], status: number) =>
  problems.filter((problem) => !problem.includes(`status of ${status}`));

async function editorReady(page: Page, heading: string): Promise<void> {
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  // The pickers' catalogs have loaded: the built-in tool list has its options.
  await page
    .getByRole('group', { name: 'Add to allowed tools' })
    .getByRole('option', { name: 'FileSystem:write' })
    .waitFor({ state: 'attached' });
}

async function addTool(
  page: Page,
  list: 'allowed tools' | 'disallowed tools',
  spec: string,
): Promise<void> {
  const picker = page.getByRole('group', { name: `Add to ${list}` });
  await picker.getByLabel('Add from').selectOption('builtin');
  await picker.getByLabel('Tool').selectOption(spec);
  await picker.getByRole('button', { name: `Add to ${list}` }).click();
  await page.getByRole('button', { name: `Remove ${spec}` }).waitFor();
}

async function value(locator: Locator): Promise<string> {
  return locator.inputValue();
}

describe.skipIf(CHROMIUM === null)('the agent editor', () => {
  const running = useConsole(FILES);

  /** The create page, loaded, with a name and a description typed. */
  async function newAgentPage(name: string, description: string) {
    const opened = await openPage(running.browser, `${running.dev.url}/#/agents/new`);
    await editorReady(opened.page, 'New agent');
    await opened.page.getByLabel('Name', { exact: true }).fill(name);
    await opened.page.getByLabel('Description', { exact: true }).fill(description);
    return opened;
  }

  it('creates an agent: a typo typed in YAML is a warning chip that refuses the save until removed', async () => {
    const { page, problems } = await openPage(running.browser, `${running.dev.url}/#/agents/new`);
    await editorReady(page, 'New agent');
    await page.getByText('Inherits all tools (no tools declared)').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'agent-create');

    await page.getByLabel('Name', { exact: true }).fill('typo-agent');
    await page.getByLabel('Description', { exact: true }).fill('Checks the typo path');
    await page.getByRole('tab', { name: 'YAML' }).click();
    const yaml = page.getByLabel('Agent file: YAML frontmatter, then the system prompt');
    await eventually(
      async () => (await value(yaml)).includes('name: typo-agent') || undefined,
      'the generated YAML',
    );
    await yaml.fill(
      [
        '---',
        'name: typo-agent',
        'description: Checks the typo path',
        'tools: [read, wirte]',
        '---',
        'You check typos.',
        '',
      ].join('\n'),
    );
    const diagnostics = page.locator('#agent-yaml-diagnostics');
    await diagnostics.getByText(/Line 4 tools\[1\]\s+'wirte' names no tool or provider/).waitFor();
    await page
      .getByRole('tabpanel', { name: 'YAML' })
      .getByText('Edited as YAML: the form shows what it parses to', { exact: false })
      .waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'agent-yaml-tab');

    await page.getByRole('tab', { name: 'Form' }).click();
    const chip = page.getByRole('button', { name: /^wirte: resolves to nothing/ });
    await chip.waitFor();
    expect(await chip.getAttribute('class')).toBe('chip warning');
    expect(await chip.getAttribute('title')).toMatch(/^'wirte' names no tool or provider/);
    const describedBy = await chip.getAttribute('aria-describedby');
    expect(await page.locator(`[id="${describedBy}"]`).innerText()).toMatch(
      /^'wirte' names no tool or provider/,
    );
    const save = page.getByRole('button', { name: 'Save', exact: true });
    expect(await save.isDisabled()).toBe(true);
    await page.getByText('Remove the names that resolve to nothing first').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'agent-chip-warning');

    await chip.click();
    await chip.waitFor({ state: 'detached' });
    await addTool(page, 'allowed tools', 'FileSystem:write');
    await eventually(async () => (await save.isEnabled()) || undefined, 'Save enabled again');
    // The form's changes went into the typed text's own key, the rest kept as typed.
    await page.getByRole('tab', { name: 'YAML' }).click();
    expect(await value(yaml)).toContain('You check typos.');
    expect(await value(yaml)).not.toContain('wirte');
    expect(await value(yaml)).toContain('FileSystem:write');

    await save.click();
    await page.waitForURL(/#\/agents\/typo-agent\?level=project$/);
    const saved = readAgent(running.dev, 'typo-agent');
    expect(saved.frontmatter).toEqual({
      name: 'typo-agent',
      description: 'Checks the typo path',
      tools: ['read', 'FileSystem:write'],
    });
    expect(saved.body).toBe('You check typos.\n');
    expect(problems).toEqual([]);
  });

  it('saves when Save is pressed while the live check of the last edit is still on its way', async () => {
    const { page, problems } = await newAgentPage('quick-save', 'Saved at once');
    // Every check answers late from here on: the debounced check of the next edit starts while
    // the save's own check is still waiting for its answer.
    await page.route('**/workspace/agents/check', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 800));
      await route.continue();
    });
    await page.getByLabel('Description', { exact: true }).fill('Saved at once, after an edit');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL(/#\/agents\/quick-save\?level=project$/);
    expect(readAgent(running.dev, 'quick-save').frontmatter.description).toBe(
      'Saved at once, after an edit',
    );
    expect(problems).toEqual([]);
  });

  it("shows a 422's issues on their fields and keeps what was typed", async () => {
    const { page, problems } = await newAgentPage('Bad_Name', 'Refused twice');
    await page.getByLabel('Max turns').fill('0');
    await page
      .getByRole('textbox', { name: 'System prompt', exact: true })
      .fill('Kept after the refusal.');
    const answer = page.waitForResponse(
      (response) =>
        response.request().method() === 'POST' && response.url().endsWith('/workspace/agents'),
    );
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const refused = await answer;
    expect(refused.status()).toBe(422);
    const { issues } = (await refused.json()) as {
      issues: Array<{ path: string; message: string }>;
    };
    const byPath = Object.fromEntries(issues.map((issue) => [issue.path, issue.message]));
    expect(Object.keys(byPath).sort()).toEqual(['maxTurns', 'name']);

    await page.locator('#agent-name-problems').getByText(byPath.name!, { exact: true }).waitFor();
    await page
      .locator('#agent-max-turns-problems')
      .getByText(byPath.maxTurns!, { exact: true })
      .waitFor();
    expect(await page.getByLabel('Max turns').getAttribute('aria-invalid')).toBe('true');
    await page.getByText('The server refused the save', { exact: false }).waitFor();
    expect(await value(page.getByLabel('Name', { exact: true }))).toBe('Bad_Name');
    expect(await value(page.getByLabel('Description', { exact: true }))).toBe('Refused twice');
    expect(await value(page.getByRole('textbox', { name: 'System prompt', exact: true }))).toBe(
      'Kept after the refusal.',
    );
    expect(expectedRefusals(problems, 422)).toEqual([]);
  });

  it('edits in the YAML tab: switching tabs keeps the text as typed, and a save writes it', async () => {
    const { page, problems } = await openPage(
      running.browser,
      `${running.dev.url}/#/agents/yaml-edit/edit?level=project`,
    );
    await editorReady(page, 'Edit yaml-edit');
    await page.getByRole('link', { name: '← yaml-edit' }).waitFor();
    // The tabs answer the arrow keys, as ARIA tabs do.
    await page.getByRole('tab', { name: 'Form' }).focus();
    await page.keyboard.press('ArrowRight');
    expect(await page.getByRole('tab', { name: 'YAML' }).getAttribute('aria-selected')).toBe(
      'true',
    );
    const yaml = page.getByLabel('Agent file: YAML frontmatter, then the system prompt');
    const generated = await value(yaml);
    expect(generated).toContain('description: Before the edit');
    const typed = `${generated.replace('description: Before the edit', 'description: After the YAML edit')}# a comment of mine\n`;
    await yaml.fill(typed);

    await page.getByRole('tab', { name: 'Form' }).click();
    const description = page.getByLabel('Description', { exact: true });
    await eventually(
      async () => (await value(description)) === 'After the YAML edit' || undefined,
      'the form showing what the YAML parses to',
    );
    await page.getByRole('tab', { name: 'YAML' }).click();
    expect(await value(yaml)).toBe(typed);

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL(/#\/agents\/yaml-edit\?level=project$/);
    const saved = readAgent(running.dev, 'yaml-edit');
    expect(saved.frontmatter).toEqual({
      name: 'yaml-edit',
      description: 'After the YAML edit',
      tools: ['read', 'glob'],
      maxTurns: 7,
    });
    expect(saved.body).toContain('You are edited as YAML.');
    expect(problems).toEqual([]);
  });

  it('adds an MCP tool through the cascading picker: server, then its live tools', async () => {
    const { page, problems } = await newAgentPage('mcp-agent', 'Echoes through MCP');
    const picker = page.getByRole('group', { name: 'Add to allowed tools' });
    await picker.getByLabel('Add from').selectOption('mcp');
    await picker.getByLabel('Server').selectOption('everything');
    // The server connects in the background; the picker asks again until it lists its tools.
    await picker
      .getByRole('option', { name: 'mcp:everything:echo' })
      .waitFor({ state: 'attached' });
    await picker.getByLabel('Tool').selectOption('mcp:everything:echo');
    await picker.getByRole('button', { name: 'Add to allowed tools' }).click();
    await page.getByRole('button', { name: 'Remove mcp:everything:echo' }).waitFor();
    // Adding a server's tool declared the server.
    await page
      .getByRole('group', { name: 'MCP servers' })
      .getByRole('button', { name: 'Remove everything' })
      .waitFor();
    await addTool(page, 'disallowed tools', 'Bash:bash');

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL(/#\/agents\/mcp-agent\?level=project$/);
    expect(readAgent(running.dev, 'mcp-agent').frontmatter).toEqual({
      name: 'mcp-agent',
      description: 'Echoes through MCP',
      tools: ['mcp:everything:echo'],
      disallowedTools: ['Bash:bash'],
      mcpServers: ['everything'],
    });
    expect(problems).toEqual([]);
  });

  it('picks a knowledge folder as a glob, and flags knowledge without read while editing', async () => {
    const { page, problems } = await newAgentPage('kb-agent', 'Answers from the docs');
    await addTool(page, 'allowed tools', 'FileSystem:write');

    await page.getByRole('button', { name: 'Add source' }).click();
    const picker = page.getByRole('dialog', { name: 'Choose a folder for the knowledge source' });
    await picker.getByRole('button', { name: 'docs' }).waitFor();
    // A path outside the workspace is refused with the API's own message.
    await picker.getByLabel('Go to a folder (relative to the workspace)').fill('../elsewhere');
    await picker.getByRole('button', { name: 'Go' }).click();
    await picker
      .getByRole('alert')
      .getByText("leaves the workspace ('..')", { exact: false })
      .waitFor();
    await picker.getByRole('button', { name: 'docs' }).click();
    await picker.getByRole('navigation', { name: 'Folder path' }).getByText('docs').waitFor();
    await picker.getByRole('button', { name: 'guides' }).waitFor();
    await picker.getByRole('button', { name: 'Use this folder' }).click();
    await picker.waitFor({ state: 'detached' });

    const row = page.getByRole('row', { name: /docs\/\*\*\/\*/ });
    await row.waitFor();
    expect(await value(row.getByLabel('Name of the source docs/**/*'))).toBe('docs');
    const flag = page.getByText('Knowledge needs the read tool', { exact: false });
    await flag.waitFor();
    // The check says it too, in the server's words, before any save.
    const formPanel = page.getByRole('tabpanel', { name: 'Form' });
    await formPanel
      .getByText('kb_search returns path:line hits the agent cannot open', { exact: false })
      .waitFor();

    await addTool(page, 'allowed tools', 'FileSystem:read');
    await flag.waitFor({ state: 'detached' });
    await formPanel
      .getByText('kb_search returns path:line hits the agent cannot open', { exact: false })
      .waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL(/#\/agents\/kb-agent\?level=project$/);
    expect(readAgent(running.dev, 'kb-agent').frontmatter).toEqual({
      name: 'kb-agent',
      description: 'Answers from the docs',
      tools: ['FileSystem:write', 'FileSystem:read'],
      knowledge: [{ name: 'docs', glob: 'docs/**/*' }],
    });
    expect(expectedRefusals(problems, 422)).toEqual([]);
  });

  it("keeps an inline server's secret through edits without ever showing it", async () => {
    const { page, problems } = await openPage(
      running.browser,
      `${running.dev.url}/#/agents/keeper/edit?level=project`,
    );
    await editorReady(page, 'Edit keeper');
    await page.getByRole('button', { name: 'Remove vault' }).waitFor();
    expect(await page.content()).not.toContain(SECRET);
    await page.getByRole('tab', { name: 'YAML' }).click();
    const yaml = page.getByLabel('Agent file: YAML frontmatter, then the system prompt');
    expect(await value(yaml)).toContain('VAULT_TOKEN: __redacted__');
    expect(await page.content()).not.toContain(SECRET);
    await page.getByRole('tab', { name: 'Form' }).click();

    await page
      .getByLabel('Description', { exact: true })
      .fill('Keeps a secret, edited in the form');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL(/#\/agents\/keeper\?level=project$/);
    let saved = readAgent(running.dev, 'keeper');
    expect(saved.frontmatter.description).toBe('Keeps a secret, edited in the form');
    expect(saved.frontmatter.mcpServers).toEqual([
      {
        name: 'vault',
        transport: 'stdio',
        command: 'node',
        args: ['vault-server.js'],
        env: { VAULT_TOKEN: SECRET },
      },
    ]);

    // Changing the servers sends the inline one back with its placeholder: the server restores it.
    await page.goto(`${running.dev.url}/#/agents/keeper/edit?level=project`);
    await editorReady(page, 'Edit keeper');
    const servers = page.getByRole('group', { name: 'MCP servers' });
    await servers.getByLabel('MCP servers: choose one to add').selectOption('tracker');
    await servers.getByRole('button', { name: 'Add server' }).click();
    await servers.getByRole('button', { name: 'Remove tracker' }).waitFor();
    expect(await page.content()).not.toContain(SECRET);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL(/#\/agents\/keeper\?level=project$/);
    saved = readAgent(running.dev, 'keeper');
    expect(saved.frontmatter.mcpServers).toEqual([
      {
        name: 'vault',
        transport: 'stdio',
        command: 'node',
        args: ['vault-server.js'],
        env: { VAULT_TOKEN: SECRET },
      },
      'tracker',
    ]);
    expect(await page.content()).not.toContain(SECRET);
    expect(problems).toEqual([]);
  });

  it('generates drafts in a dialog: Cancel leaves the form, "Use these" copies both', async () => {
    const { page, problems } = await openPage(running.browser, `${running.dev.url}/#/agents/new`);
    await editorReady(page, 'New agent');
    const description = page.getByLabel('Description', { exact: true });
    const prompt = page.getByRole('textbox', { name: 'System prompt', exact: true });
    await description.fill('Written by hand');
    await prompt.fill('Also by hand.');

    const generate = async (): Promise<Locator> => {
      await page.getByRole('button', { name: 'Generate with AI…' }).click();
      const dialog = page.getByRole('dialog', {
        name: 'Generate the description and system prompt',
      });
      await dialog
        .getByText('The text comes from the workspace’s default model', { exact: false })
        .waitFor();
      await dialog.getByLabel('What should the agent do?').fill('Summarise release notes');
      await dialog.getByRole('button', { name: 'Generate' }).click();
      await dialog.getByText('Both drafts are ready.').waitFor();
      return dialog;
    };
    const draft = '[scripted model] draft for: Summarise release notes';

    let dialog = await generate();
    expect(await value(dialog.getByLabel('Description draft'))).toBe(draft);
    expect(await value(dialog.getByLabel('System prompt draft'))).toBe(draft);
    await dialog
      .getByText('scripted:scripts/drafts.yaml (scripted model)', { exact: false })
      .waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'agent-generate-dialog');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await value(description)).toBe('Written by hand');
    expect(await value(prompt)).toBe('Also by hand.');

    dialog = await generate();
    await dialog.getByRole('button', { name: 'Use these' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await value(description)).toBe(draft);
    expect(await value(prompt)).toBe(draft);
    expect(problems).toEqual([]);
  });
});
