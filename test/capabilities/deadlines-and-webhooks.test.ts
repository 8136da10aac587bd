/**
 * Card deadlines and webhook routes, from definition and configuration to snapshot:
 * the definition's three deadline fields, each falling back to the workspace's `cards` section
 * (a bad value is a diagnostic on load and an error on save; a reminder that is not shorter than
 * the timeout is dropped, and said so); the workspace's webhooks routed by event.
 */
import { describe, expect, it } from 'vitest';
import { resolveCapabilities } from '../../src/capabilities/resolve.js';
import { ConfigFileSchema } from '../../src/config/schema.js';
import { parseDefinition } from '../../src/definitions/read/parse.js';
import { frontmatterShape } from '../../src/definitions/schema.js';
import { input } from './helpers.js';

const project = { fileName: 'timed.md', level: 'project' as const };

function parsed(frontmatter: string) {
  return parseDefinition(`---\nname: timed\ndescription: d\n${frontmatter}---\nBody\n`, project);
}

describe('card deadline fields of a definition', () => {
  it('reads cardTimeout, cardReminder and cardTimeoutOutcome as written', () => {
    const { definition, diagnostics } = parsed(
      'cardTimeout: 30m\ncardReminder: 5m\ncardTimeoutOutcome: approve\n',
    );
    expect(definition).toMatchObject({
      cardTimeout: '30m',
      cardReminder: '5m',
      cardTimeoutOutcome: 'approve',
    });
    expect(diagnostics).toEqual([]);
  });

  it('leaves out a value that is not a duration, with an error naming the field', () => {
    const { definition, diagnostics } = parsed('cardTimeout: soon\ncardReminder: 10\n');
    expect(definition.cardTimeout).toBeUndefined();
    expect(definition.cardReminder).toBeUndefined();
    expect(diagnostics).toMatchObject([
      {
        severity: 'error',
        path: 'cardTimeout',
        message: expect.stringMatching(/'soon' is not a duration.*left out/),
      },
      { severity: 'error', path: 'cardReminder', message: expect.stringMatching(/a duration/) },
    ]);
  });

  it('refuses a bad duration on save (the API schema)', () => {
    expect(frontmatterShape.cardTimeout.safeParse('2h').success).toBe(true);
    const refused = frontmatterShape.cardTimeout.safeParse('0s');
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toMatch(/zero/);
  });
});

describe('card deadlines in the snapshot', () => {
  it('has none when neither the definition nor the workspace sets a timeout', () => {
    expect(resolveCapabilities(input()).cardDeadlines).toBeUndefined();
  });

  it("takes the definition's fields over the workspace's, one by one", () => {
    const cards = ConfigFileSchema.parse({
      cards: { timeout: '2h', reminder: '10m', timeoutOutcome: 'approve' },
    }).cards;
    const config = { ...input().config, cards };
    expect(resolveCapabilities(input({}, { config })).cardDeadlines).toEqual({
      timeoutMs: 7_200_000,
      reminderMs: 600_000,
      outcome: 'approve',
      source: 'workspace',
    });
    expect(
      resolveCapabilities(input({ cardTimeout: '90s', cardReminder: '30s' }, { config }))
        .cardDeadlines,
    ).toEqual({ timeoutMs: 90_000, reminderMs: 30_000, outcome: 'approve', source: 'definition' });
    expect(
      resolveCapabilities(input({ cardTimeoutOutcome: 'deny' }, { config })).cardDeadlines?.outcome,
    ).toBe('deny');
  });

  it('drops a reminder that would not come before the deadline, with a warning', () => {
    const snapshot = resolveCapabilities(input({ cardTimeout: '1m', cardReminder: '1m' }));
    expect(snapshot.cardDeadlines).toEqual({
      timeoutMs: 60_000,
      outcome: 'deny',
      source: 'definition',
    });
    expect(snapshot.diagnostics).toContainEqual(
      expect.objectContaining({ severity: 'warning', code: 'cardReminder.not-before-deadline' }),
    );
  });
});

describe('the workspace cards section', () => {
  it('defaults to no deadline, and refuses what is not a duration or an outcome', () => {
    expect(ConfigFileSchema.parse({}).cards).toEqual({ timeoutOutcome: 'deny' });
    expect(ConfigFileSchema.safeParse({ cards: { timeout: 'tomorrow' } }).success).toBe(false);
    expect(ConfigFileSchema.safeParse({ cards: { timeoutOutcome: 'ignore' } }).success).toBe(false);
    expect(ConfigFileSchema.safeParse({ cards: { timeout: '1h', extra: 1 } }).success).toBe(false);
  });
});

describe('the workspace notifications section', () => {
  it('routes each event to the webhooks that take it, in the snapshot', () => {
    const { notifications } = ConfigFileSchema.parse({
      notifications: {
        webhooks: {
          ops: { url: 'https://ops.example/hook', events: ['card.opened', 'delegation.failed'] },
          chat: { url: 'http://127.0.0.1:9000/in', events: ['card.opened'], secretEnv: 'CHAT_KEY' },
        },
      },
    });
    const config = { ...input().config, notifications };
    expect(resolveCapabilities(input({}, { config })).webhooks).toEqual({
      'card.opened': ['ops', 'chat'],
      'delegation.failed': ['ops'],
    });
    expect(resolveCapabilities(input()).webhooks).toBeUndefined();
  });

  it('refuses a URL that is not http(s), an unknown event, no event, a literal secret key', () => {
    const hook = (webhook: Record<string, unknown>) =>
      ConfigFileSchema.safeParse({ notifications: { webhooks: { ops: webhook } } }).success;
    expect(hook({ url: 'https://ops.example/hook', events: ['card.opened'] })).toBe(true);
    expect(hook({ url: 'file:///etc/passwd', events: ['card.opened'] })).toBe(false);
    expect(hook({ url: 'https://ops.example/hook', events: ['card.closed'] })).toBe(false);
    expect(hook({ url: 'https://ops.example/hook', events: [] })).toBe(false);
    expect(hook({ url: 'https://ops.example/hook', events: ['card.opened'], secret: 'x' })).toBe(
      false,
    );
    expect(
      hook({ url: 'https://ops.example/hook', events: ['card.opened'], secretEnv: 'not a name' }),
    ).toBe(false);
  });
});
