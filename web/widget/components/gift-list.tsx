/** Gift cards (name, category, price, why it fits): a `suggest_gifts` result, or a person's in a bulk one. */
import type { ReactNode } from "react";
import type { Currency } from "../../../shared/money.js";
import type { Gift, SuggestGiftsResult } from "../../../shared/tools.js";
import { useMessages } from "../i18n.js";

/** `empty`: what is shown instead when there is no gift. */
export type GiftListProps = { gifts: Gift[]; currency?: Currency; empty: ReactNode };

export function GiftList({ gifts, currency, empty }: GiftListProps) {
  const t = useMessages();
  if (gifts.length === 0) return empty;
  return (
    <ul className="gg-gifts">
      {gifts.map((g) => (
        <li key={g.id} className="gg-gift">
          <div className="gg-gift-head">
            <span className="gg-gift-name">{g.name}</span>
            <span className="gg-gift-price">{t.price(g.price, currency)}</span>
          </div>
          <span className="gg-gift-category">{g.category}</span>
          <p className="gg-gift-reason">{g.reason}</p>
        </li>
      ))}
    </ul>
  );
}

export function GiftCards({ result }: { result: SuggestGiftsResult }) {
  const t = useMessages();
  return (
    <section className="gg-panel">
      <h1 className="gg-title">{t.giftsFor(result.occasion, t.price(result.budget, result.currency))}</h1>
      <GiftList gifts={result.gifts} currency={result.currency} empty={<p>{t.noGifts}</p>} />
    </section>
  );
}
