/**
 * The one-sentence `reason` that comes with each suggested gift: which interests it meets,
 * whether it suits the occasion, and how it sits in the budget. Plain words, no markup.
 */
import type { CatalogItem } from "./catalog.js";
import { OCCASION_LABELS } from "./vocabulary.js";

export type ReasonParts = {
  item: CatalogItem;
  budget: number;
  /** Matched tags from the person's interests or description, strongest first. */
  interestTags: string[];
  /** Set when only the department pointed at this gift. */
  department?: string;
  /** Set when the gift suits the request's occasion. */
  occasion?: string;
};

/** "$45" or "$12.50". */
export function dollars(amount: number): string {
  return `$${Number.isInteger(amount) ? amount : amount.toFixed(2)}`;
}

const label = (tag: string) => tag.replace(/-/g, " ");

export function giftReason({ item, budget, interestTags, department, occasion }: ReasonParts): string {
  const parts: string[] = [];
  if (interestTags.length > 0) {
    const [a, b] = interestTags.map(label);
    parts.push(`Matches their interest in ${b ? `${a} and ${b}` : a}`);
  } else if (department) {
    parts.push(`A good fit for someone in ${department.trim()}`);
  } else {
    parts.push(`A well-loved ${item.category.toLowerCase()} gift`);
  }
  if (occasion) parts.push(`suits ${OCCASION_LABELS[occasion] ?? occasion}`);
  parts.push(`${dollars(item.price)} of the ${dollars(budget)} budget`);
  return `${parts.join("; ")}.`;
}
