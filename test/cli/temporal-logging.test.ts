import { describe, expect, it } from 'vitest';
import { maskedLogLine } from '../../src/cli/servers/temporal-logging.js';
import { createSecretMasker } from '../../src/secrets/masker.js';

describe("the worker's log lines", () => {
  it('are the SDK layout with secrets masked, in the message and in the error it carries', () => {
    const secrets = createSecretMasker(['worker-secret-value']);
    const line = maskedLogLine(
      {
        level: 'WARN',
        message: 'Activity failed',
        meta: { activityType: 'callModel', error: new Error('echoed worker-secret-value') },
        timestampNanos: 1_700_000_000_000_000_000n,
      },
      secrets,
    );
    expect(line).toMatch(/^2023-11-14T22:13:20\.000Z \[WARN\] Activity failed \{/);
    expect(line).toContain("activityType: 'callModel'");
    expect(line).toContain('echoed __redacted__');
    expect(line).not.toContain('worker-secret-value');
    expect(line.endsWith('\n')).toBe(true);
  });
});
