/**
 * Signed one-tap links for approving or denying a card.
 *
 * - `POST /cards/:id/links` (an ordinary route, bearer token and all) mints the approve and deny
 *   links of a pending card for the caller, who must be allowed to decide it.
 * - `GET /cards/:id/links/:token` shows what the card asks and a button; it never decides, so
 *   mail scanners and chat link previews that fetch it change nothing.
 * - `POST /cards/:id/links/:token` (the button) decides, as the identity that minted the link,
 *   through the same `decideAs` (rights, then `Delegations.decide`) as `POST /cards/:id`.
 * - Both refuse a link whose identity no longer exists (a user whose token was removed, a webhook
 *   no longer configured) and decide with only the roles its user still has (link-holder.ts).
 *
 * The two link routes are public: the token is the credential, so they run before the bearer
 * check, the body limit and the JSON-only rule (a form posts `application/x-www-form-urlencoded`
 * and its body is never read). The POST still passes the Host/Origin guard (a page on another
 * site cannot press the button for you; the page's own form is same-origin), and the GET the Host
 * check alone (a link clicked in a web mail is a cross-site navigation, which must work).
 */
import type { Context, Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { LiveConfig } from '../../config/live-config.js';
import { DeputyError, HTTP_STATUS, isDeputyError } from '../../errors.js';
import { linkKeys } from '../../secrets/link-keys.js';
import { linkBaseHost } from '../../secrets/link-settings.js';
import { verifyLinkToken, type LinkClaims, type LinkRefusal } from '../../secrets/link-token.js';
import { mintCardLinks } from '../../secrets/link-mint.js';
import { localOperatorId } from '../../local-operator.js';
import { assertMayDecide } from '../../rights/rights.js';
import { decideAs } from '../../asks/decide-as.js';
import type { SecretMasker } from '../../secrets/masker.js';
import { delegationIdOfCard, type ApprovalCard } from '../../shared/delegation.js';
import type { Delegations } from '../../temporal/delegations/facade.js';
import { isRecorded } from '../../temporal/delegations/types.js';
import type { AppEnv } from '../http/app-env.js';
import type { Auth } from '../http/auth.js';
import type { Logger } from '../http/errors.js';
import { hostGuard, hostNameOf, isLoopbackHost } from '../http/host-guard.js';
import { cardIdParam } from '../http/path-ids.js';
import { linkHolderNow } from './link-holder.js';
import { confirmationPage, LINK_PAGE_HEADERS, messagePage } from './link-page.js';

export const CARD_LINK_ROUTE = '/cards/:id/links/:token';

export interface CardLinkDeps {
  delegations: Delegations;
  settings: Pick<LiveConfig, 'current'>;
  secrets: SecretMasker;
  logger: Logger;
}

/** `POST /cards/:id/links`: register with the authenticated routes. */
export function registerCardLinkMinting(app: Hono<AppEnv>, deps: CardLinkDeps): void {
  app.post('/cards/:id/links', async (c) => {
    const cardId = cardIdParam(c);
    const caller = c.get('caller');
    await assertMayDecide(deps.delegations, caller, cardId);
    const card = await pendingCard(deps.delegations, cardId);
    // Not masked: the answer is two URLs and a time, and a token must reach its holder whole.
    const boundPort = localPortOf(c);
    return c.json(mintCardLinks(deps.settings.current(), card, caller, { boundPort }));
  });
}

/**
 * The TCP port this request reached, which is the port the API listens on: with `api.port: 0` in
 * the configuration (a free port picked at start) the configured one says nothing. Null over the
 * local socket (and in-process): then the configured port stands.
 */
function localPortOf(c: Context<AppEnv>): number | null {
  const incoming = (c.env as { incoming?: { socket?: { localPort?: number } } } | undefined)
    ?.incoming;
  const port = incoming?.socket?.localPort;
  return typeof port === 'number' && port > 0 ? port : null;
}

/** The card, pending now; `conflict` when it was decided or settled, `not-found` when unknown. */
async function pendingCard(delegations: Delegations, cardId: string): Promise<ApprovalCard> {
  const state = await delegations.get(delegationIdOfCard(cardId) ?? cardId);
  const pending = state.pendingCards.find((card) => card.id === cardId);
  if (pending !== undefined) return pending;
  if (state.decidedCards.some((card) => card.id === cardId)) {
    throw new DeputyError('conflict', `card ${cardId} is already decided: no links for it`);
  }
  throw new DeputyError('not-found', `no pending approval card with id '${cardId}'`);
}

export interface CardLinkPageDeps extends CardLinkDeps {
  /** Host names answered besides loopback ones (the app's `hosts.allowed`). */
  hosts?: { allowed?: readonly string[] };
  /**
   * Whether bearer auth is on now (a link minted anonymously is refused then), and who its users
   * are now (a link of a user whose token was removed is refused: link-holder.ts).
   */
  auth: Pick<Auth, 'enabled' | 'user'>;
}

/**
 * The public link routes. Register before the app's guards: their handlers answer every request
 * themselves and never call `next`, so nothing after them runs for these paths.
 */
export function registerCardLinkPages(app: Hono<AppEnv>, deps: CardLinkPageDeps): void {
  const allowedNow = () => {
    const base = linkBaseHost(deps.settings.current());
    return [...(deps.hosts?.allowed ?? []), ...(base === null ? [] : [base])];
  };
  app.get(CARD_LINK_ROUTE, (c) =>
    answer(c, deps, async () => {
      assertLinkHost(c, allowedNow());
      const { cardId, claims } = verified(c, deps);
      const state = await deps.delegations.get(delegationIdOfCard(cardId) ?? cardId);
      const pending = state.pendingCards.find((card) => card.id === cardId);
      if (pending !== undefined) {
        return { status: 200, html: confirmationPage(deps.secrets.value(pending), claims) };
      }
      const decided = state.decidedCards.find((card) => card.id === cardId);
      if (decided !== undefined) return settledPage(deps, decided);
      return notPendingPage(cardId);
    }),
  );
  app.post(CARD_LINK_ROUTE, (c) =>
    answer(c, deps, async () => {
      // The whole guard: Host, Origin and Sec-Fetch-Site. A fresh one per request, since the
      // base URL's host follows the configuration.
      await hostGuard({ allowedHosts: allowedNow(), openPaths: new Set() })(c, async () => {});
      const { cardId, claims } = verified(c, deps);
      const identity = claims.identity;
      const outcome = await decideAs(deps.delegations, identity, cardId, {
        decision: claims.decision,
        // Recorded on the card (an approval's) or told to the model (a denial's): how it was decided.
        reason: `${claims.decision === 'approve' ? 'approved' : 'denied'} with a one-tap link`,
      });
      if (isRecorded(outcome)) {
        return {
          status: 202,
          html: messagePage(
            claims.decision === 'approve' ? 'Approval recorded' : 'Denial recorded',
            `${deps.secrets.text(outcome.message)} The agent is told when a worker picks the delegation up.`,
            deps.secrets.value(outcome.card),
          ),
        };
      }
      const done = claims.decision === 'approve' ? 'Approved' : 'Denied';
      return {
        status: 200,
        html: messagePage(
          done,
          `${done} as ${identity.id ?? 'anonymous'}: ${outcome.tool} for ${outcome.agent} (card ${outcome.id}).`,
          deps.secrets.value(outcome),
        ),
      };
    }),
  );
}

interface PageAnswer {
  status: ContentfulStatusCode;
  html: string;
}

/** Runs `build`, turning every refusal into a page with its status; nothing ever escapes as JSON. */
async function answer(
  c: Context<AppEnv>,
  deps: CardLinkDeps,
  build: () => Promise<PageAnswer>,
): Promise<Response> {
  let result: PageAnswer;
  try {
    result = await build();
  } catch (error) {
    result = refusalPage(error, c, deps);
  }
  return c.body(result.html, result.status, LINK_PAGE_HEADERS);
}

function refusalPage(error: unknown, c: Context<AppEnv>, deps: CardLinkDeps): PageAnswer {
  if (error instanceof LinkRefused) return { status: error.status, html: error.html };
  if (error instanceof DeputyError) {
    const status = HTTP_STATUS[error.kind];
    const title = isDeputyError(error, 'conflict')
      ? 'Already decided'
      : isDeputyError(error, 'forbidden')
        ? 'Not allowed'
        : isDeputyError(error, 'not-found')
          ? 'Not found'
          : 'Not possible now';
    return { status, html: messagePage(title, deps.secrets.text(error.message)) };
  }
  deps.logger.error(`internal error on ${c.req.method} a card link`, error);
  return { status: 500, html: messagePage('Something went wrong', 'Try again later.') };
}

/** A refusal decided here, with its own status and page. */
class LinkRefused extends Error {
  constructor(
    readonly status: PageAnswer['status'],
    readonly html: string,
  ) {
    super('link refused');
  }
}

const REFUSALS: Record<LinkRefusal, { status: PageAnswer['status']; title: string; text: string }> =
  {
    malformed: {
      status: 403,
      title: 'Not a valid link',
      text: 'This link is not valid: it may have been cut short or changed. Open it again from where you got it.',
    },
    signature: {
      status: 403,
      title: 'Not a valid link',
      text: 'This link is not valid: it was changed, or its signing key has been removed from this server.',
    },
    card: {
      status: 403,
      title: 'Not a valid link',
      text: 'This link is not valid for this card.',
    },
    expired: {
      status: 410,
      title: 'Link expired',
      text: 'This link has expired. Decide the card from the console, the CLI, or ask for a new link (deputy cards --links).',
    },
  };

/** The card id and the token's claims, or a refusal page. */
function verified(
  c: Context<AppEnv>,
  deps: CardLinkPageDeps,
): { cardId: string; claims: LinkClaims } {
  let cardId: string;
  try {
    cardId = cardIdParam(c);
  } catch {
    throw new LinkRefused(404, messagePage('Not found', 'No approval card has this id.'));
  }
  const keys = linkKeys(deps.settings.current());
  if (!keys.on) {
    throw new LinkRefused(404, messagePage('Links are off', `${keys.reason}.`));
  }
  const verdict = verifyLinkToken(c.req.param('token') ?? '', keys.keys, {
    cardId,
    now: Date.now(),
  });
  if (!verdict.ok) {
    const refusal = REFUSALS[verdict.refusal];
    throw new LinkRefused(refusal.status, messagePage(refusal.title, refusal.text));
  }
  // Who minted it must still exist now (and keeps only the roles they still have).
  const holder = linkHolderNow(verdict.claims.identity, {
    auth: deps.auth,
    config: deps.settings.current(),
    operator: localOperatorId(),
  });
  if (!holder.ok) throw new LinkRefused(403, messagePage('Not allowed', holder.message));
  return { cardId, claims: { ...verdict.claims, identity: holder.identity } };
}

/**
 * The Host check alone, for the GET: the name must be loopback, listed, or the links' own base
 * URL's. Origin and Sec-Fetch-Site are not read: opening a link from a mail is cross-site.
 */
function assertLinkHost(c: Context<AppEnv>, allowed: readonly string[]): void {
  const authority = c.req.header('host') ?? new URL(c.req.url).host;
  const host = hostNameOf(authority);
  const names = new Set(allowed.map((name) => hostNameOf(name) ?? name));
  if (host !== null && (isLoopbackHost(host) || names.has(host))) return;
  throw new LinkRefused(
    421,
    messagePage(
      'Wrong address',
      'This server does not answer to that host name. Set DEPUTY_PUBLIC_URL (or links.publicUrl) to the address links should use.',
    ),
  );
}

function settledPage(deps: CardLinkDeps, card: ApprovalCard): PageAnswer {
  const state = card.state;
  const by =
    state.status === 'pending' ? '' : ` by ${state.decidedBy ?? 'anonymous'} at ${state.decidedAt}`;
  return {
    status: 409,
    html: messagePage(
      'Already decided',
      `This card was already ${state.status}${by}. The link does nothing now.`,
      deps.secrets.value(card),
    ),
  };
}

function notPendingPage(cardId: string): PageAnswer {
  return {
    status: 409,
    html: messagePage(
      'Not pending',
      `Card ${cardId} is not pending: its delegation has ended or moved on, or no worker can tell right now.`,
    ),
  };
}
