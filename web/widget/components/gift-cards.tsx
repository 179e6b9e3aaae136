/**
 * The view for a `suggest_gifts` result: the occasion and budget, then one card per gift.
 */
import type { SuggestGiftsResult } from "../../../shared/tools.js";
import { useHostGlobal } from "../host-context.js";
import { formatPrice, useMessages } from "../i18n.js";
import { GiftList } from "./gift-list.js";

export type GiftCardsProps = { result: SuggestGiftsResult };

export function GiftCards({ result }: GiftCardsProps) {
  const t = useMessages();
  const locale = useHostGlobal("locale");
  return (
    <section className="gg-panel">
      <h1 className="gg-title">{t.giftsFor(result.occasion, formatPrice(result.budget, locale, result.currency))}</h1>
      {result.gifts.length === 0 ? <p>{t.noGifts}</p> : <GiftList gifts={result.gifts} currency={result.currency} />}
    </section>
  );
}
