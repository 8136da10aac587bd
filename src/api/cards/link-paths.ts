/** The OpenAPI path items of the one-tap link routes (link-routes.ts), merged by api/openapi/document.ts. */
import { z } from 'zod';
import {
  component,
  jsonResponse,
  pathParameter,
  textResponse,
  type PathItems,
} from '../openapi/parts.js';
import { commonErrors, errorAnswer } from '../openapi/answers.js';

export const CardLinksSchema = component(
  'CardLinks',
  z.object({
    cardId: z.string(),
    approve: z.url().describe('Opens a confirmation page whose button approves the card'),
    deny: z.url().describe('Opens a confirmation page whose button denies the card'),
    expiresAt: z
      .string()
      .describe(
        "When both links stop working: the sooner of `links.expiry` and the card's deadline",
      ),
  }),
);

const cardId = pathParameter('id', z.string(), 'Card id: `<delegationId>.<n>`');
const token = pathParameter('token', z.string(), 'The signed token the link carries');

const page = (description: string) => textResponse(description, 'text/html');

const LINK_REFUSALS = {
  '403': page(
    'Not a valid link (changed, cut short, for another card, or its key was removed); a link made while auth was off once auth is on; the minter may no longer decide the card; or (POST) a request from a foreign web origin',
  ),
  '404': page('Unknown card, or links are off (no signing key is configured)'),
  '409': page('The card is already decided (a link works once) or is no longer pending'),
  '410': page('The link has expired'),
  '421': page(
    "The `Host` is not loopback, listed in DEPUTY_ALLOWED_HOSTS, or the links' base URL host",
  ),
};

export const cardLinkPaths: PathItems = {
  '/cards/{id}/links': {
    post: {
      summary: 'Mint signed one-tap approve and deny links for a pending card',
      description:
        'The links decide as the caller, who must be allowed to decide the card (as for ' +
        '`POST /cards/{id}`). Each holds an HMAC-SHA256 token over the card, the decision, the ' +
        'expiry, the caller and a nonce, signed with the first configured link key. No body.',
      parameters: [cardId],
      responses: {
        '200': jsonResponse(CardLinksSchema, 'The links'),
        '404': errorAnswer('Unknown card'),
        '409': errorAnswer('The card is already decided'),
        ...commonErrors,
        '503': errorAnswer(
          '`unavailable`: links are off (set DEPUTY_LINK_SECRET or `links.secretEnv`), or Temporal is not reachable',
        ),
      },
    },
  },
  '/cards/{id}/links/{token}': {
    get: {
      summary: 'A one-tap link: a confirmation page (decides nothing)',
      description:
        'Public: the token is the credential. Shows what the card asks (agent, tool, masked ' +
        'arguments, reason) and one button that posts the decision. Safe for link previews.',
      security: [],
      parameters: [cardId, token],
      responses: {
        '200': page('The confirmation page'),
        ...LINK_REFUSALS,
        '500': page('Internal error; details are logged, never returned'),
        '503': page('Temporal is not reachable'),
      },
    },
    post: {
      summary: "A one-tap link's button: decide the card as the link's minter",
      description:
        'Public, behind the Host/Origin check. Decides through the same rights check and path ' +
        'as `POST /cards/{id}`, once: a second post is 409. The body is not read.',
      security: [],
      parameters: [cardId, token],
      responses: {
        '200': page('Decided: a worker applied the decision'),
        '202': page('Recorded: applied when a worker runs the delegation'),
        ...LINK_REFUSALS,
        '500': page('Internal error; details are logged, never returned'),
        '503': page('Temporal is not reachable'),
      },
    },
  },
};
