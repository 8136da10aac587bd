/**
 * The agents list and one agent's view page, as a user sees them from `deputy dev`: levels in
 * their order with diagnostics and badges, a built-in read-only with every capability stated,
 * copying an agent with all its dimensions, restoring a revision, delegating, deleting, and the
 * workspace configuration's problems on the list.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/config/load.js';
import { eventually } from '../support/eventually.js';
import {
  CHROMIUM,
  openPage,
  screenshot,
  seriousViolations,
  useConsole,
} from './support/console.js';

/** Declares every capability dimension, so a copy that drops one shows. */
const RESEARCHER = `---
name: researcher
description: Researches the notes with every capability declared
model: scripted:scripts/greet.yaml
tools: [read, glob, kb_search, memory_read, memory_write, use_skill, mcp:everything]
disallowedTools: [bash]
skills: [task-report]
mcpServers:
  - everything
  - name: local-notes
    transport: stdio
    command: node
    args: [notes-server.js]
    env:
      NOTES_TOKEN: s3cret-value
knowledge:
  - { name: notes, glob: 'notes/**/*.md' }
memory: private
approvalMode: auto-in-workspace
maxTurns: 12
cardTimeout: 30m
cardReminder: 5m
cardTimeoutOutcome: deny
hooks:
  PreToolUse:
    - command: echo pre
sandbox:
  write: [notes]
  env: [CI]
---
You research the notes and report.
`;

const NOTEBOOK = `---
name: notebook
description: notebook v0
tools: [read]
---
Notebook body v0.
`;

const FILES: Record<string, string> = {
  // Configured but disabled: declared by name without a process to start.
  '.subagents/config.yaml':
    'mcpServers:\n  everything:\n    transport: stdio\n    command: node\n    args: [absent.js]\n    enabled: false\n',
  '.subagents/agents/researcher.md': RESEARCHER,
  '.subagents/agents/notebook.md': NOTEBOOK,
  '.subagents/agents/typo.md':
    "---\nname: typo\ndescription: Has a typo'd field\ntools: [read]\ncolour: red\n---\nBody.\n",
  '.subagents/agents/helper.md':
    "---\nname: helper\ndescription: The project's helper\ntools: [read, grep]\n---\nProject helper.\n",
  '.subagents/agents/greeter.md':
    '---\nname: greeter\ndescription: Greets on the scripted model\nmodel: scripted:scripts/greet.yaml\ntools: [read]\n---\nYou greet.\n',
  '.subagents/agents/scratch.md': '---\nname: scratch\ndescription: To be deleted\n---\nScratch.\n',
  '.user-config/agents/helper.md':
    '---\nname: helper\ndescription: A user helper the project shadows\ntools: [read]\n---\nUser helper.\n',
  '.user-config/agents/mine.md':
    '---\nname: mine\ndescription: A user agent that declares no tools\n---\nMine.\n',
  '.claude/agents/x.md':
    '---\nname: x\ndescription: An ecosystem agent from Claude Code\ntools: Read, Grep\n---\nEcosystem.\n',
  'scripts/greet.yaml': "turns:\n  - text: 'Hello from greeter: ${task}'\n",
  'notes/a.md': '# notes\n',
};

/** What Chromium logs for an answer the test provoked on purpose. */
const refused = (status: 409 | 422) =>
  `console error: Failed to load resource: the server responded with a status of ${status} (${status === 409 ? 'Conflict' : 'Unprocessable Entity'})`;

const CAPABILITY_SECTIONS = [
  'Tools',
  'Disallowed tools',
  'Skills',
  'MCP servers',
  'Knowledge sources',
  'Memory',
  'Model',
  'Approval policy',
  'Turn limit',
  'Token budget',
  'Background',
  'Card deadlines',
  'Sandbox',
  'Hooks',
];

describe.skipIf(CHROMIUM === null)('the agents pages', () => {
  const running = useConsole(FILES);

  const open = (route: string) => openPage(running.browser, `${running.dev.url}/#${route}`);
  const region = (page: Page, name: string): Locator =>
    page.getByRole('region', { name, exact: true });
  const linksIn = async (scope: Locator) =>
    (await scope.getByRole('table').getByRole('link').allTextContents()).sort();

  it('lists the four levels in order, with diagnostics, read-only and shadowed badges', async () => {
    const { page, problems } = await open('/agents');
    await page.getByRole('heading', { name: 'Built-in', level: 2 }).waitFor();
    expect(await page.getByRole('heading', { level: 2 }).allTextContents()).toEqual([
      'Built-in',
      'User',
      'Project',
      'Ecosystem',
    ]);
    expect(await linksIn(region(page, 'Built-in'))).toEqual(['demo', 'demo-lead', 'main']);
    expect(await linksIn(region(page, 'User'))).toEqual(['helper', 'mine']);
    expect(await linksIn(region(page, 'Project'))).toEqual([
      'greeter',
      'helper',
      'notebook',
      'researcher',
      'scratch',
      'typo',
    ]);
    expect(await linksIn(region(page, 'Ecosystem'))).toEqual(['x']);

    const typo = region(page, 'Project').getByRole('row', { name: /^typo / });
    const count = typo.getByText('1 warning', { exact: true });
    expect(await count.getAttribute('class')).toContain('warning');
    expect(await typo.getByRole('link', { name: 'typo' }).getAttribute('href')).toBe(
      '#/agents/typo?level=project',
    );
    const userHelper = region(page, 'User').getByRole('row', { name: /^helper / });
    expect(await userHelper.getByText('shadowed by project').isVisible()).toBe(true);
    expect(await userHelper.getByText('1 warning').isVisible()).toBe(true);
    const main = region(page, 'Built-in').getByRole('row', { name: /^main / });
    expect(await main.getByText('read-only').isVisible()).toBe(true);
    expect(await main.getByText('none', { exact: true }).isVisible()).toBe(true);
    expect(
      await region(page, 'User')
        .getByRole('row', { name: /^mine / })
        .textContent(),
    ).toContain('all tools');
    expect(await page.getByRole('link', { name: 'New agent' }).getAttribute('href')).toBe(
      '#/agents/new',
    );
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'agents-list');
    expect(problems).toEqual([]);
  });

  it('opens a built-in read-only, every capability stated, no Edit, with its prompt', async () => {
    const { page, problems } = await open('/agents');
    await region(page, 'Built-in').getByRole('link', { name: 'main' }).click();
    await page.waitForURL(/#\/agents\/main\?level=builtin$/);
    await page.getByRole('heading', { name: 'main', level: 1 }).waitFor();
    expect(await page.getByText(/^Read-only — a built-in agent/).isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'Edit' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Delete' }).count()).toBe(0);
    expect(await region(page, 'Revisions').count()).toBe(0);
    for (const name of CAPABILITY_SECTIONS) {
      expect(await region(page, name).isVisible(), name).toBe(true);
    }
    expect(await region(page, 'Tools').getByRole('listitem').allTextContents()).toEqual([
      'read',
      'glob',
      'grep',
      'Task',
    ]);
    const said = async (section: string) => region(page, section).textContent();
    expect(await said('Skills')).toContain(
      'No skills declared: no skill catalog, use_skill unavailable.',
    );
    expect(await said('MCP servers')).toContain('No MCP servers declared');
    expect(await said('Knowledge sources')).toContain('No knowledge sources declared');
    expect(await said('Memory')).toContain('none: no memory directory');
    expect(await said('Disallowed tools')).toContain('No tools disallowed.');
    expect(await said('Hooks')).toContain('No hooks');
    expect(await said('Sandbox')).toContain("not declared: the workspace's sandbox, else off.");
    expect(await said('Approval policy')).toContain('confirm');
    expect(await said('Turn limit')).toContain('40 model rounds');
    expect(await said('Token budget')).toContain('none: model calls are not limited by tokens.');
    expect(await page.getByRole('region', { name: 'System prompt text' }).textContent()).toContain(
      "You are deputy's main agent.",
    );
    expect(await region(page, 'Diagnostics').textContent()).toContain('No diagnostics');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'agent-view-builtin');

    // Copied to the user level: the same file but for its name, and the copy can be edited.
    await page.getByLabel('Name of the copy').fill('my-main');
    await page.getByRole('button', { name: 'Copy to user level' }).click();
    await page.waitForURL(/#\/agents\/my-main\?level=user$/);
    await page.getByRole('heading', { name: 'my-main', level: 1 }).waitFor();
    const builtin = readFileSync(join(PROJECT_ROOT, 'agents', 'main.md'), 'utf8');
    expect(readFileSync(join(running.dev.userDir, 'agents', 'my-main.md'), 'utf8')).toBe(
      builtin.replace(/^name: main$/m, 'name: my-main'),
    );
    expect(await region(page, 'Tools').getByRole('listitem').allTextContents()).toEqual([
      'read',
      'glob',
      'grep',
      'Task',
    ]);
    expect(await page.getByRole('link', { name: 'Edit' }).getAttribute('href')).toBe(
      '#/agents/my-main/edit?level=user',
    );

    // An agent that declares no tools inherits them all, and says so.
    await page.goto(`${running.dev.url}/#/agents/mine?level=user`);
    await page.getByRole('heading', { name: 'mine', level: 1 }).waitFor();
    expect(await said('Tools')).toContain('Inherits all tools');
    expect(await page.getByRole('link', { name: 'Edit' }).getAttribute('href')).toBe(
      '#/agents/mine/edit?level=user',
    );
    expect(problems).toEqual([]);
  });

  /** The researcher's dimensions as its page shows them, for the original and for a copy. */
  async function expectResearcherDimensions(page: Page): Promise<void> {
    const said = async (section: string) => (await region(page, section).textContent()) ?? '';
    expect(await said('Skills')).toContain('task-report');
    const mcp = await said('MCP servers');
    expect(mcp).toContain('everything: configured in the workspace');
    expect(mcp).toContain('local-notes: inline');
    expect(mcp).toContain('"NOTES_TOKEN": "__redacted__"');
    expect(await said('Knowledge sources')).toContain('notes: notes/**/*.md');
    expect(await said('Memory')).toContain('private: a memory directory of this agent');
    expect(await said('Disallowed tools')).toContain('bash');
    expect(await said('Approval policy')).toContain('auto-in-workspace');
    expect(await said('Card deadlines')).toContain('30m');
    expect(await said('Hooks')).toContain('PreToolUse');
    expect(await said('Sandbox')).toContain('on, no network: also writes notes; variables CI.');
    expect(await said('Turn limit')).toContain('12 model rounds');
    expect(await page.content()).not.toContain('s3cret-value');
  }

  it('copies an agent with every dimension to the user level, refusing bad names on the field', async () => {
    const { page, problems } = await open('/agents/researcher?level=project');
    await page.getByRole('heading', { name: 'researcher', level: 1 }).waitFor();
    await expectResearcherDimensions(page);
    await region(page, 'Revisions').getByText('No earlier versions yet').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'agent-view-project');

    const nameField = page.getByLabel('Name of the copy');
    expect(await nameField.inputValue()).toBe('researcher-copy');
    await nameField.fill('Bad Name');
    await page.getByRole('button', { name: 'Copy to user level' }).click();
    const refusal = page.locator('.copy-form').getByRole('alert');
    expect(await refusal.textContent()).toMatch(/\S/);
    expect(await nameField.getAttribute('aria-invalid')).toBe('true');
    expect(await nameField.inputValue()).toBe('Bad Name');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'agent-copy-refused');
    await nameField.fill('main');
    await page.getByRole('button', { name: 'Copy to user level' }).click();
    await page
      .locator('.copy-form')
      .getByText(/built-in/)
      .waitFor();

    await nameField.fill('researcher-copy');
    await page.getByRole('button', { name: 'Copy to user level' }).click();
    await page.waitForURL(/#\/agents\/researcher-copy\?level=user$/);
    await page.getByRole('heading', { name: 'researcher-copy', level: 1 }).waitFor();
    const path = join(running.dev.userDir, 'agents', 'researcher-copy.md');
    expect(await page.getByText(path).filter({ visible: true }).isVisible()).toBe(true);
    await expectResearcherDimensions(page);
    const onDisk = readFileSync(path, 'utf8');
    expect(onDisk).toBe(RESEARCHER.replace('name: researcher\n', 'name: researcher-copy\n'));
    // The browser logs each refused request; those two were asked for.
    expect(problems).toEqual([refused(422), refused(409)]);
  });

  it('restores the first revision of an agent edited twice, and the file says so', async () => {
    for (const description of ['notebook v1', 'notebook v2']) {
      const answer = await fetch(`${running.dev.url}/workspace/agents/notebook?level=project`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ description }),
      });
      expect(answer.status).toBe(200);
    }
    const file = join(running.dev.workspace, '.subagents', 'agents', 'notebook.md');
    expect(readFileSync(file, 'utf8')).toContain('notebook v2');

    const { page, problems } = await open('/agents/notebook?level=project');
    await page.getByText('notebook v2', { exact: true }).waitFor();
    const restoreButtons = region(page, 'Revisions').getByRole('button', { name: /^Restore/ });
    await restoreButtons.nth(1).waitFor();
    expect(await restoreButtons.count()).toBe(2);
    // Newest first: the last row is the version the first edit replaced, the original file.
    await restoreButtons.last().click();
    const dialog = page.getByRole('dialog', { name: 'Restore this version?' });
    await dialog.waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'agent-restore-confirm');
    await dialog.getByRole('button', { name: 'Restore' }).click();
    await page.getByText('notebook v0', { exact: true }).waitFor();
    expect(readFileSync(file, 'utf8')).toBe(NOTEBOOK);
    // The version it replaced is kept too.
    await restoreButtons.nth(2).waitFor();
    expect(await page.getByRole('region', { name: 'System prompt text' }).textContent()).toBe(
      'Notebook body v0.\n',
    );
    expect(problems).toEqual([]);
  });

  it('delegates a task from the view page and lands on the delegation', async () => {
    const { page, problems } = await open('/agents/greeter?level=project');
    await page.getByRole('heading', { name: 'greeter', level: 1 }).waitFor();
    // A blank task is the API's to refuse, shown under the field.
    await page.getByRole('button', { name: 'Start delegation' }).click();
    const refusal = page.locator('.delegate-form').getByRole('alert');
    expect(await refusal.textContent()).toMatch(/task/i);
    expect(await page.getByLabel('Task', { exact: true }).getAttribute('aria-invalid')).toBe(
      'true',
    );
    await page.getByLabel('Task', { exact: true }).fill('Say hello');
    await page.getByRole('button', { name: 'Start delegation' }).click();
    await page.waitForURL(/#\/delegations\/[^/?]+$/);
    const id = decodeURIComponent(new URL(page.url()).hash.replace('#/delegations/', ''));
    const state = await eventually(async () => {
      const answer = await fetch(`${running.dev.url}/delegations/${encodeURIComponent(id)}`);
      return answer.ok ? ((await answer.json()) as { agent: string }) : undefined;
    }, 'the delegation the page started');
    expect(state.agent).toBe('greeter');
    expect(problems).toEqual([refused(422)]);
  });

  it('deletes a writable agent after a confirmation and returns to the list', async () => {
    const { page, problems } = await open('/agents/scratch?level=project');
    await page.getByRole('heading', { name: 'scratch', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete scratch?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(existsSync(join(running.dev.workspace, '.subagents', 'agents', 'scratch.md'))).toBe(
      true,
    );
    await page.getByRole('button', { name: 'Delete' }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.waitForURL(/#\/agents$/);
    await region(page, 'Project').getByRole('link', { name: 'greeter' }).waitFor();
    expect(await linksIn(region(page, 'Project'))).not.toContain('scratch');
    expect(existsSync(join(running.dev.workspace, '.subagents', 'agents', 'scratch.md'))).toBe(
      false,
    );
    expect(problems).toEqual([]);
  });

  it("shows the workspace configuration's problems in a banner on the list", async () => {
    writeFileSync(
      join(running.dev.workspace, '.subagents', 'config.yaml'),
      'mcpServers: [not, a, map]\n',
    );
    await eventually(async () => {
      const list = (await (await fetch(`${running.dev.url}/workspace/agents`)).json()) as {
        errors?: unknown[];
      };
      return list.errors?.length ? true : undefined;
    }, 'the configuration problem in the list');
    const { page, problems } = await open('/agents');
    const banner = page.getByRole('alert').filter({ hasText: 'configuration has problems' });
    expect(await banner.textContent()).toContain('config');
    expect(await seriousViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
  });
});
