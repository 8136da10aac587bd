/**
 * Signed one-tap links of a pending card: what `POST /cards/:id/links`, `deputy cards
 * --links` and a `card.*` webhook body carry. Each URL holds an HMAC token bound to the card, the
 * decision, the expiry and the identity that minted it (src/secrets/link-token.ts).
 */
export interface CardLinks {
  cardId: string;
  /** Opening it shows a confirmation page; posting that page's form approves the card. */
  approve: string;
  /** The same for a denial. */
  deny: string;
  /** When both stop working (ISO 8601): the sooner of the configured expiry and the card's deadline. */
  expiresAt: string;
}
