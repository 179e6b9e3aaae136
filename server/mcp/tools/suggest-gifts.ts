/**
 * `suggest_gifts`: a handful of catalog gifts for one recipient, ranked by fit to what is said
 * about them (in English, Korean or both) and to the occasion, all within budget; named and
 * reasoned in the caller's language, decided as a bulk job decides it. Rendered by the widget.
 */
import { SuggestGiftsInput, SuggestGiftsOutput, TOOL, type SuggestGiftsResult } from "../../../shared/tools.js";
import { dollars } from "../../gifts/reason.js";
import type { MatchGifts } from "../../gifts/matcher.js";
import { localeOf } from "../../jobs/runner/texts.js";
import { toolMeta, type Widget } from "../../widget.js";
import { defineTool } from "../tool-registry.js";
import { failure, success } from "../tool-results.js";

const DEFAULT_GIFT_COUNT = 5;

export type SuggestGiftsDeps = {
  matchGifts: MatchGifts;
  /** The cheapest price in the catalog: the smallest budget that can work. */
  cheapestPrice: number;
  widget: Widget;
};

function summary(result: SuggestGiftsResult): string {
  const lines = result.gifts.map((g, i) => `${i + 1}. ${g.name} (${dollars(g.price)}, ${g.category}): ${g.reason}`);
  return `${result.gifts.length} gift ideas for ${result.occasion} within ${dollars(result.budget)}:\n${lines.join("\n")}`;
}

export function suggestGiftsTool({ matchGifts, cheapestPrice, widget }: SuggestGiftsDeps) {
  return defineTool({
    name: TOOL.suggestGifts,
    title: "Suggest gifts",
    description:
      "Suggests gifts for one person from the GiftGenius catalog, ranked by how well they fit the " +
      "recipient (role, interests, tastes) and the occasion, never over the budget. Use it for a single " +
      "recipient; for a whole team or a CSV of employees use start_bulk_gift_analysis.",
    input: SuggestGiftsInput,
    output: SuggestGiftsOutput,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    meta: toolMeta(widget, {
      renders: { invoking: "Finding gift ideas…", invoked: "Gift ideas ready" },
      calledByWidget: true,
    }),
    run({ occasion, budget, recipient, count, locale }, { meta }) {
      const gifts = matchGifts({
        occasion,
        budget,
        interests: [],
        text: recipient,
        count: count ?? DEFAULT_GIFT_COUNT,
        // the model's word first, then the host's hint (ChatGPT sends openai/locale with each call)
        locale: localeOf(locale, meta["openai/locale"]),
      });
      if (gifts.length === 0) {
        return failure({
          code: "no_gift_fits",
          message: `No gift in the catalog costs ${dollars(budget)} or less.`,
          hint: `The cheapest gift costs ${dollars(cheapestPrice)}: ask for a budget of at least ${dollars(cheapestPrice)}.`,
        });
      }
      const result: SuggestGiftsResult = { occasion, budget, gifts };
      return success(result, summary(result));
    },
  });
}
