/**
 * The one-sentence `reason` that comes with each suggested gift: which interests it meets,
 * whether it suits the occasion, and how it sits in the budget. Plain words, no markup.
 * The sentence is split into clauses so the matcher can make the fixed ones once, at load.
 */
import { formatsFor } from "../../shared/format.js";
import { OCCASION_LABELS } from "./vocabulary.js";

const english = formatsFor("en-US");

/** "$45" or "$12.50", as the widget writes amounts. */
export function dollars(amount: number): string {
  return english.money(amount);
}

/** "Matches their interest in board games": the opening when a stated interest matched. */
export function interestOpening(tag: string): string {
  return `Matches their interest in ${tagLabel(tag)}`;
}

/** A second matched interest, appended to `interestOpening`: " and yoga". */
export function secondInterest(tag: string): string {
  return ` and ${tagLabel(tag)}`;
}

/** The opening when only the department pointed at the gift. */
export function departmentOpening(department: string): string {
  return `A good fit for someone in ${department.trim()}`;
}

/** The opening when nothing about the person matched the gift. */
export function categoryOpening(category: string): string {
  return `A well-loved ${category.toLowerCase()} gift`;
}

/** "; suits the holidays": added when the gift suits the request's occasion. */
export function occasionClause(occasion: string): string {
  return `; suits ${OCCASION_LABELS[occasion] ?? occasion}`;
}

/** Joins the clauses; the amounts come already written by `dollars` (each is made once). */
export function giftReason(opening: string, occasion: string, priceText: string, budgetText: string): string {
  return `${opening}${occasion}; ${priceText} of the ${budgetText} budget.`;
}

function tagLabel(tag: string): string {
  return tag.replace(/-/g, " ");
}
