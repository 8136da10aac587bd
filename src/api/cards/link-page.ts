/**
 * The small HTML pages a one-tap link answers with (link-routes.ts): the confirmation a GET shows
 * (what the card asks, and one button that posts the decision), and the outcome or refusal a
 * POST or a bad link gets. No script, no external resource; everything quoted is escaped, and the
 * card's arguments are masked before they get here.
 */
import type { ApprovalCard } from '../../shared/delegation.js';
import type { LinkClaims } from '../../secrets/link-token.js';

/**
 * Headers of every link page. The token is in the URL: no referrer may carry it to another site,
 * no cache keep it, no search engine index it, no other site frame the button. `same-origin`, not
 * `no-referrer`: under `no-referrer` a browser sends the form's POST with `Origin: null`, which
 * the Host/Origin guard must refuse (test/browser/card-links.test.ts caught it).
 */
export const LINK_PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'referrer-policy': 'same-origin',
  'x-robots-tag': 'noindex, nofollow',
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
};

const STYLE =
  'body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;color:#1b1b1b}' +
  'dt{font-weight:600}dd{margin:0 0 .5rem}pre{background:#f3f3f3;padding:.5rem;overflow:auto;white-space:pre-wrap;word-break:break-word}' +
  'button{font-size:1.1rem;padding:.6rem 1.4rem;border-radius:.3rem;border:1px solid #555;cursor:pointer}' +
  '.approve{background:#1a7f37;color:#fff}.deny{background:#b42318;color:#fff}';

export function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
${body}
</main>
</body>
</html>
`;
}

function row(term: string, value: string): string {
  return `<dt>${escapeHtml(term)}</dt><dd>${escapeHtml(value)}</dd>`;
}

function cardDetails(card: ApprovalCard): string {
  return `<dl>
${row('Agent', card.agent)}
${row('Tool', card.tool)}
<dt>Arguments</dt><dd><pre>${escapeHtml(JSON.stringify(card.arguments, null, 2))}</pre></dd>
${row('Why it asks', card.reason)}
${row('Delegation', card.delegationId)}
${row('Card', card.id)}
${row('Opened', card.openedAt)}
${card.deadline === undefined ? '' : row('Settled without a decision at', card.deadline)}
</dl>`;
}

/** The confirmation a GET shows: nothing is decided until its button posts the form. */
export function confirmationPage(card: ApprovalCard, claims: LinkClaims): string {
  const verb = claims.decision === 'approve' ? 'Approve' : 'Deny';
  const who = claims.identity.id ?? 'anonymous (auth off)';
  // No `action`: the form posts to this page's own URL, whatever prefix a proxy adds.
  return page(
    `${verb} ${card.tool} for ${card.agent}?`,
    `<p>An agent is waiting for a decision on this tool call. Nothing has been decided yet: the
decision is made only when you press the button below.</p>
${cardDetails(card)}
<p>Deciding as <strong>${escapeHtml(who)}</strong> (who made this link). The link works once and
until ${escapeHtml(new Date(claims.expiresAt).toISOString())}.</p>
<form method="post">
<button type="submit" class="${claims.decision}">${verb}</button>
</form>`,
  );
}

/** What a POST did, or why a link does nothing: a heading and one paragraph. */
export function messagePage(title: string, message: string, card?: ApprovalCard): string {
  return page(title, `<p>${escapeHtml(message)}</p>${card === undefined ? '' : cardDetails(card)}`);
}
