/** The one-tap link pages: whatever a card quotes is escaped, and the form posts back to the page. */
import { describe, expect, it } from 'vitest';
import { confirmationPage, messagePage } from '../../src/api/cards/link-page.js';
import type { ApprovalCard } from '../../src/shared/delegation.js';

const card: ApprovalCard = {
  id: 'd-1.1',
  delegationId: 'd-1',
  workflowId: 'delegation/s/d-1',
  session: 's',
  agent: 'demo<script>',
  tool: 'write',
  arguments: { path: '"><script>alert(1)</script>', content: "it's & <b>" },
  reason: 'asks <img src=x onerror=alert(1)>',
  openedAt: '2026-12-02T12:00:00.000Z',
  state: { status: 'pending' },
};

describe('card link pages', () => {
  it('escapes everything the card quotes and has no script', () => {
    const html = confirmationPage(card, {
      cardId: card.id,
      decision: 'deny',
      expiresAt: Date.parse('2026-12-03T12:00:00Z'),
      identity: { id: 'olga<i>', roles: [] },
      nonce: 'n',
    });
    expect(html).not.toMatch(/<script|<img|<b>|<i>/);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('olga&lt;i&gt;');
    expect(html).toContain('Deny write for demo&lt;script&gt;?');
    // No action: the form posts to the page's own URL.
    expect(html).toContain(
      '<form method="post">\n<button type="submit" class="deny">Deny</button>',
    );
    expect(messagePage('<t>', '<m>')).not.toMatch(/<t>|<m>/);
  });
});
