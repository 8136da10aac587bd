/**
 * `deputy cards --links`: signed one-tap approve and deny links for each pending card,
 * deciding as this terminal's operator (`cli:<login>`, an admin). Minted by the running API over
 * the local socket (`POST /cards/:id/links`) when there is one, else here, with the link key of
 * this command's own environment. Either way the URLs point at the API's public address
 * (DEPUTY_PUBLIC_URL, `links.publicUrl`, or the configured API host and port): the CLI prints
 * them, a person opens them elsewhere.
 */
import type { Command } from 'commander';
import { mintCardLinks } from '../../secrets/link-mint.js';
import { localOperator } from '../../local-operator.js';
import type { CardLinks } from '../../shared/cards/card-links.js';
import type { ApprovalCard } from '../../shared/delegation.js';
import { configFor } from '../context.js';
import { preferLocalApi } from '../local-api.js';

export async function cardLinksFor(
  command: Command,
  cards: readonly ApprovalCard[],
): Promise<CardLinks[]> {
  if (cards.length === 0) return [];
  return preferLocalApi(
    command,
    (api) => Promise.all(cards.map((card) => api.cards.links(card.id))),
    async () => {
      const config = await configFor(command);
      const operator = localOperator();
      return cards.map((card) => mintCardLinks(config, card, operator));
    },
  );
}

/** The lines printed under a card's own (format.ts cardLines). */
export function cardLinkLines(links: CardLinks): string[] {
  return [
    `  approve link: ${links.approve}`,
    `  deny link:    ${links.deny}`,
    `  links work once, until ${links.expiresAt}`,
  ];
}
