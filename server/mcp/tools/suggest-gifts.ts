/** `suggest_gifts`: catalog gifts within budget for one recipient, ranked as a bulk job ranks them. */
import { SuggestGiftsInput, SuggestGiftsOutput, TOOL, type SuggestGiftsResult } from "../../../shared/tools.js";
import { currencyForLocale, type Currency } from "../../../shared/money.js";
import { moneyText } from "../../gifts/reason.js";
import { localeOf, localeTag } from "../../jobs/runner/texts.js";
import { defineTool, failure, success, type ToolDeps } from "../tool-registry.js";

const DEFAULT_GIFT_COUNT = 5;

function summary(result: SuggestGiftsResult, currency: Currency): string {
  const money = (amount: number) => moneyText(amount, currency);
  const lines = result.gifts.map((g, i) => `${i + 1}. ${g.name} (${money(g.price)}, ${g.category}): ${g.reason}`);
  return `${result.gifts.length} gift ideas for ${result.occasion} within ${money(result.budget)}:\n${lines.join("\n")}`;
}

export const suggestGiftsTool = defineTool(({ matchGifts, cheapestPrice }: ToolDeps) => ({
  name: TOOL.suggestGifts,
  title: "Suggest gifts",
  description:
    "Suggests gifts for one person from the GiftGenius catalog, ranked by how well they fit the " +
    "recipient (role, interests, tastes) and the occasion, never over the budget. Use it for a single " +
    "recipient; for a whole team or a CSV of employees use start_bulk_gift_analysis.",
  input: SuggestGiftsInput,
  output: SuggestGiftsOutput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  ui: { renders: { invoking: "Finding gift ideas…", invoked: "Gift ideas ready" }, calledByWidget: true },
  run({ occasion, budget, recipient, count, locale, currency: asked }, { meta }) {
    const currency = asked ?? currencyForLocale(localeTag(locale, meta["openai/locale"]));
    const money = (amount: number) => moneyText(amount, currency);
    const gifts = matchGifts({
      occasion,
      budget,
      interests: [],
      text: recipient,
      count: count ?? DEFAULT_GIFT_COUNT,
      locale: localeOf(locale, meta["openai/locale"]),
      currency,
    });
    if (gifts.length === 0)
      return failure({
        code: "no_gift_fits",
        message: `No gift in the catalog costs ${money(budget)} or less.`,
        hint: `The cheapest gift costs ${money(cheapestPrice[currency])}: ask for a budget of at least ${money(cheapestPrice[currency])}.`,
      });
    const result: SuggestGiftsResult = { occasion, budget, currency, gifts };
    return success(result, summary(result, currency));
  },
}));
